import { MigrationInterface, QueryRunner } from "typeorm";

export class AddBackups1795327366808 implements MigrationInterface {
    name = 'AddBackups1795327366808'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "backup" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "server_id" bigint NOT NULL, "name" character varying(191) NOT NULL, "ignored_files" text array NOT NULL DEFAULT '{}', "disk" character varying(32) NOT NULL DEFAULT 'wings', "checksum" character varying(191), "bytes" bigint NOT NULL DEFAULT '0', "is_successful" boolean NOT NULL DEFAULT false, "is_locked" boolean NOT NULL DEFAULT false, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_backup" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_backup_server_created" ON "backup" ("server_id", "created_at") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_backup_uuid" ON "backup" ("uuid") `);
        await queryRunner.query(`ALTER TABLE "backup" ADD CONSTRAINT "FK_backup_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "backup" DROP CONSTRAINT "FK_backup_server"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_backup_uuid"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_backup_server_created"`);
        await queryRunner.query(`DROP TABLE "backup"`);
    }

}
