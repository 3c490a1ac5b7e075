import { MigrationInterface, QueryRunner } from "typeorm";

export class AddMounts1795839722574 implements MigrationInterface {
    name = 'AddMounts1795839722574'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "mount" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "name" character varying(64) NOT NULL, "description" text, "source" character varying(255) NOT NULL, "target" character varying(255) NOT NULL, "read_only" boolean NOT NULL DEFAULT false, "user_mountable" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_mount" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_mount_name" ON "mount" ("name") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_mount_uuid" ON "mount" ("uuid") `);
        await queryRunner.query(`CREATE TABLE "egg_mount" ("egg_id" uuid NOT NULL, "mount_id" bigint NOT NULL, CONSTRAINT "PK_egg_mount" PRIMARY KEY ("egg_id", "mount_id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_egg_mount_mount_id" ON "egg_mount" ("mount_id") `);
        await queryRunner.query(`CREATE TABLE "mount_node" ("mount_id" bigint NOT NULL, "node_id" bigint NOT NULL, CONSTRAINT "PK_mount_node" PRIMARY KEY ("mount_id", "node_id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_mount_node_node_id" ON "mount_node" ("node_id") `);
        await queryRunner.query(`CREATE TABLE "mount_server" ("mount_id" bigint NOT NULL, "server_id" bigint NOT NULL, CONSTRAINT "PK_mount_server" PRIMARY KEY ("mount_id", "server_id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_mount_server_server_id" ON "mount_server" ("server_id") `);
        await queryRunner.query(`ALTER TABLE "egg_mount" ADD CONSTRAINT "FK_egg_mount_egg" FOREIGN KEY ("egg_id") REFERENCES "egg"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "egg_mount" ADD CONSTRAINT "FK_egg_mount_mount" FOREIGN KEY ("mount_id") REFERENCES "mount"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "mount_node" ADD CONSTRAINT "FK_mount_node_mount" FOREIGN KEY ("mount_id") REFERENCES "mount"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "mount_node" ADD CONSTRAINT "FK_mount_node_node" FOREIGN KEY ("node_id") REFERENCES "node"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "mount_server" ADD CONSTRAINT "FK_mount_server_mount" FOREIGN KEY ("mount_id") REFERENCES "mount"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "mount_server" ADD CONSTRAINT "FK_mount_server_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "mount_server" DROP CONSTRAINT "FK_mount_server_server"`);
        await queryRunner.query(`ALTER TABLE "mount_server" DROP CONSTRAINT "FK_mount_server_mount"`);
        await queryRunner.query(`ALTER TABLE "mount_node" DROP CONSTRAINT "FK_mount_node_node"`);
        await queryRunner.query(`ALTER TABLE "mount_node" DROP CONSTRAINT "FK_mount_node_mount"`);
        await queryRunner.query(`ALTER TABLE "egg_mount" DROP CONSTRAINT "FK_egg_mount_mount"`);
        await queryRunner.query(`ALTER TABLE "egg_mount" DROP CONSTRAINT "FK_egg_mount_egg"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_mount_server_server_id"`);
        await queryRunner.query(`DROP TABLE "mount_server"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_mount_node_node_id"`);
        await queryRunner.query(`DROP TABLE "mount_node"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_egg_mount_mount_id"`);
        await queryRunner.query(`DROP TABLE "egg_mount"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_mount_uuid"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_mount_name"`);
        await queryRunner.query(`DROP TABLE "mount"`);
    }

}
