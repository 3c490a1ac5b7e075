import { MigrationInterface, QueryRunner } from "typeorm";

export class AddSshKeys1795326159280 implements MigrationInterface {
    name = 'AddSshKeys1795326159280'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "user_ssh_key" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "name" character varying(191) NOT NULL, "fingerprint" character varying(64) NOT NULL, "public_key" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user_ssh_key" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_ssh_key_user_fingerprint" ON "user_ssh_key" ("user_id", "fingerprint") `);
        await queryRunner.query(`ALTER TABLE "user_ssh_key" ADD CONSTRAINT "FK_user_ssh_key_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_ssh_key" DROP CONSTRAINT "FK_user_ssh_key_user"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_ssh_key_user_fingerprint"`);
        await queryRunner.query(`DROP TABLE "user_ssh_key"`);
    }

}
