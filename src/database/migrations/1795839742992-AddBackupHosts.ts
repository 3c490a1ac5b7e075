import { MigrationInterface, QueryRunner } from "typeorm";

export class AddBackupHosts1795839742992 implements MigrationInterface {
    name = 'AddBackupHosts1795839742992'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "backup_host" ("id" BIGSERIAL NOT NULL, "name" character varying(191) NOT NULL, "adapter" character varying(16) NOT NULL, "endpoint" character varying(255), "region" character varying(64), "bucket" character varying(63), "key_prefix" character varying(255) NOT NULL DEFAULT '', "access_key_id" character varying(128), "secret_access_key" text, "path_style" boolean NOT NULL DEFAULT false, "part_size_mib" integer NOT NULL DEFAULT '128', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_backup_host" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_backup_host_name" ON "backup_host" ("name") `);
        await queryRunner.query(`ALTER TABLE "node" ADD "backup_host_id" bigint`);
        await queryRunner.query(`ALTER TABLE "backup" ADD "backup_host_id" bigint`);
        await queryRunner.query(`ALTER TABLE "backup" ADD "upload_id" character varying(1024)`);
        await queryRunner.query(`CREATE INDEX "IDX_node_backup_host_id" ON "node" ("backup_host_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_backup_backup_host_id" ON "backup" ("backup_host_id") `);
        await queryRunner.query(`ALTER TABLE "node" ADD CONSTRAINT "FK_node_backup_host" FOREIGN KEY ("backup_host_id") REFERENCES "backup_host"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "backup" ADD CONSTRAINT "FK_backup_backup_host" FOREIGN KEY ("backup_host_id") REFERENCES "backup_host"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "backup" DROP CONSTRAINT "FK_backup_backup_host"`);
        await queryRunner.query(`ALTER TABLE "node" DROP CONSTRAINT "FK_node_backup_host"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_backup_backup_host_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_node_backup_host_id"`);
        await queryRunner.query(`ALTER TABLE "backup" DROP COLUMN "upload_id"`);
        await queryRunner.query(`ALTER TABLE "backup" DROP COLUMN "backup_host_id"`);
        await queryRunner.query(`ALTER TABLE "node" DROP COLUMN "backup_host_id"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_backup_host_name"`);
        await queryRunner.query(`DROP TABLE "backup_host"`);
    }

}
