import { MigrationInterface, QueryRunner } from "typeorm";

export class AddSubusers1795325211659 implements MigrationInterface {
    name = 'AddSubusers1795325211659'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "subuser" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "user_id" bigint NOT NULL, "permissions" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_subuser" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_subuser_user" ON "subuser" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_subuser_server_user" ON "subuser" ("server_id", "user_id") `);
        await queryRunner.query(`ALTER TABLE "subuser" ADD CONSTRAINT "FK_subuser_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "subuser" ADD CONSTRAINT "FK_subuser_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "subuser" DROP CONSTRAINT "FK_subuser_user"`);
        await queryRunner.query(`ALTER TABLE "subuser" DROP CONSTRAINT "FK_subuser_server"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_subuser_server_user"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_subuser_user"`);
        await queryRunner.query(`DROP TABLE "subuser"`);
    }

}
