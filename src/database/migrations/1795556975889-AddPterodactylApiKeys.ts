import { MigrationInterface, QueryRunner } from "typeorm";

export class AddPterodactylApiKeys1795556975889 implements MigrationInterface {
    name = 'AddPterodactylApiKeys1795556975889'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "pterodactyl_api_key" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "key_type" smallint NOT NULL, "identifier" character varying(16) NOT NULL, "token_hash" character(64) NOT NULL, "memo" character varying(500) NOT NULL DEFAULT '', "allowed_ips" text array NOT NULL DEFAULT '{}', "permissions" jsonb NOT NULL DEFAULT '{}', "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_pterodactyl_api_key" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_pterodactyl_api_key_user_id" ON "pterodactyl_api_key" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_pterodactyl_api_key_identifier" ON "pterodactyl_api_key" ("identifier") `);
        await queryRunner.query(`ALTER TABLE "pterodactyl_api_key" ADD CONSTRAINT "FK_pterodactyl_api_key_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "pterodactyl_api_key" DROP CONSTRAINT "FK_pterodactyl_api_key_user"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_pterodactyl_api_key_identifier"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_pterodactyl_api_key_user_id"`);
        await queryRunner.query(`DROP TABLE "pterodactyl_api_key"`);
    }

}
