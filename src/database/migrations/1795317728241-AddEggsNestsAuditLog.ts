import { MigrationInterface, QueryRunner } from "typeorm";

export class AddEggsNestsAuditLog1795317728241 implements MigrationInterface {
    name = 'AddEggsNestsAuditLog1795317728241'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "actor_id" bigint, "actor_username" character varying(191), "via" character varying(32), "action" character varying(64) NOT NULL, "target_type" character varying(32) NOT NULL, "target_id" character varying(64) NOT NULL, "changes" jsonb NOT NULL DEFAULT '{}', "ip" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_audit_log" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor_id" ON "audit_log" ("actor_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_action" ON "audit_log" ("action") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_created_at" ON "audit_log" ("created_at") `);
        await queryRunner.query(`CREATE TABLE "nest" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(191) NOT NULL, "description" text, "author" character varying(191) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_nest" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "egg" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "nest_id" uuid NOT NULL, "author" character varying(191) NOT NULL, "name" character varying(255) NOT NULL, "description" text, "features" jsonb, "docker_image" text NOT NULL, "docker_images" jsonb NOT NULL DEFAULT '[]', "file_denylist" jsonb NOT NULL DEFAULT '[]', "startup" text NOT NULL, "config_files" text NOT NULL DEFAULT '{}', "config_startup" text NOT NULL DEFAULT '{}', "config_logs" text NOT NULL DEFAULT '{}', "config_stop" character varying(191), "script_container" text NOT NULL DEFAULT 'alpine:3.4', "script_entry" character varying(191) NOT NULL DEFAULT 'ash', "script_install" text, "copy_script_from" uuid, "update_url" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_egg" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_egg_nest_id" ON "egg" ("nest_id") `);
        await queryRunner.query(`CREATE TABLE "egg_variable" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "egg_id" uuid NOT NULL, "position" integer NOT NULL, "name" character varying(191) NOT NULL, "description" text NOT NULL DEFAULT '', "env_variable" character varying(191) NOT NULL, "default_value" text NOT NULL DEFAULT '', "user_viewable" boolean NOT NULL DEFAULT false, "user_editable" boolean NOT NULL DEFAULT false, "rules" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_egg_variable" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_egg_variable_env" ON "egg_variable" ("egg_id", "env_variable") `);
        await queryRunner.query(`CREATE TABLE "server" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "name" character varying(191) NOT NULL, "owner_id" bigint NOT NULL, "egg_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_server" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_server_owner_id" ON "server" ("owner_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_egg_id" ON "server" ("egg_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_uuid" ON "server" ("uuid") `);
        await queryRunner.query(`ALTER TABLE "audit_log" ADD CONSTRAINT "FK_audit_log_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "egg" ADD CONSTRAINT "FK_egg_nest" FOREIGN KEY ("nest_id") REFERENCES "nest"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "egg" ADD CONSTRAINT "FK_egg_copy_script_from" FOREIGN KEY ("copy_script_from") REFERENCES "egg"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "egg_variable" ADD CONSTRAINT "FK_egg_variable_egg" FOREIGN KEY ("egg_id") REFERENCES "egg"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server" ADD CONSTRAINT "FK_server_owner" FOREIGN KEY ("owner_id") REFERENCES "user"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server" ADD CONSTRAINT "FK_server_egg" FOREIGN KEY ("egg_id") REFERENCES "egg"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "server" DROP CONSTRAINT "FK_server_egg"`);
        await queryRunner.query(`ALTER TABLE "server" DROP CONSTRAINT "FK_server_owner"`);
        await queryRunner.query(`ALTER TABLE "egg_variable" DROP CONSTRAINT "FK_egg_variable_egg"`);
        await queryRunner.query(`ALTER TABLE "egg" DROP CONSTRAINT "FK_egg_copy_script_from"`);
        await queryRunner.query(`ALTER TABLE "egg" DROP CONSTRAINT "FK_egg_nest"`);
        await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "FK_audit_log_actor"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_server_uuid"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_egg_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_owner_id"`);
        await queryRunner.query(`DROP TABLE "server"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_egg_variable_env"`);
        await queryRunner.query(`DROP TABLE "egg_variable"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_egg_nest_id"`);
        await queryRunner.query(`DROP TABLE "egg"`);
        await queryRunner.query(`DROP TABLE "nest"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_created_at"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_action"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_target"`);
        await queryRunner.query(`DROP TABLE "audit_log"`);
    }

}
