import { MigrationInterface, QueryRunner } from "typeorm";

export class ExpandServers1795319827218 implements MigrationInterface {
    name = 'ExpandServers1795319827218'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "server_activity" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "actor_id" bigint, "actor_username" character varying(191), "event" character varying(64) NOT NULL, "metadata" jsonb NOT NULL DEFAULT '{}', "ip" character varying(64), "via" character varying(32), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_server_activity" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_server_activity_server_time" ON "server_activity" ("server_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "server_variable" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "variable_id" uuid NOT NULL, "value" text NOT NULL, CONSTRAINT "PK_server_variable" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_variable" ON "server_variable" ("server_id", "variable_id") `);
        await queryRunner.query(`ALTER TABLE "server" ADD "identifier" character varying(8) NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "description" text`);
        await queryRunner.query(`ALTER TABLE "server" ADD "status" character varying(32)`);
        await queryRunner.query(`ALTER TABLE "server" ADD "suspended" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "server" ADD "node_id" bigint NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "allocation_id" bigint`);
        await queryRunner.query(`ALTER TABLE "server" ADD "startup" text NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "image" text NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "memory" integer NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "swap" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "server" ADD "disk" integer NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "io" integer NOT NULL DEFAULT '500'`);
        await queryRunner.query(`ALTER TABLE "server" ADD "cpu" integer NOT NULL`);
        await queryRunner.query(`ALTER TABLE "server" ADD "threads" character varying(191)`);
        await queryRunner.query(`ALTER TABLE "server" ADD "oom_disabled" boolean NOT NULL DEFAULT true`);
        await queryRunner.query(`ALTER TABLE "server" ADD "database_limit" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "server" ADD "allocation_limit" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "server" ADD "backup_limit" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "server" ADD "skip_scripts" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "server" ADD "installed_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "IDX_server_node_id" ON "server" ("node_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_identifier" ON "server" ("identifier") `);
        await queryRunner.query(`ALTER TABLE "server" ADD CONSTRAINT "FK_server_node" FOREIGN KEY ("node_id") REFERENCES "node"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_activity" ADD CONSTRAINT "FK_server_activity_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_activity" ADD CONSTRAINT "FK_server_activity_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_variable" ADD CONSTRAINT "FK_server_variable_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_variable" ADD CONSTRAINT "FK_server_variable_variable" FOREIGN KEY ("variable_id") REFERENCES "egg_variable"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "server_variable" DROP CONSTRAINT "FK_server_variable_variable"`);
        await queryRunner.query(`ALTER TABLE "server_variable" DROP CONSTRAINT "FK_server_variable_server"`);
        await queryRunner.query(`ALTER TABLE "server_activity" DROP CONSTRAINT "FK_server_activity_actor"`);
        await queryRunner.query(`ALTER TABLE "server_activity" DROP CONSTRAINT "FK_server_activity_server"`);
        await queryRunner.query(`ALTER TABLE "server" DROP CONSTRAINT "FK_server_node"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_server_identifier"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_node_id"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "installed_at"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "skip_scripts"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "backup_limit"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "allocation_limit"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "database_limit"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "oom_disabled"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "threads"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "cpu"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "io"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "disk"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "swap"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "memory"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "image"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "startup"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "allocation_id"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "node_id"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "suspended"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "status"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "description"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "identifier"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_server_variable"`);
        await queryRunner.query(`DROP TABLE "server_variable"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_activity_server_time"`);
        await queryRunner.query(`DROP TABLE "server_activity"`);
    }

}
