import { MigrationInterface, QueryRunner } from "typeorm";

export class CreateUsersSessionsApiKeys1795315755628 implements MigrationInterface {
    name = 'CreateUsersSessionsApiKeys1795315755628'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "user" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "username" character varying(191) NOT NULL, "email" character varying(191) NOT NULL, "name" character varying(255) NOT NULL DEFAULT '', "password_hash" text NOT NULL, "admin" boolean NOT NULL DEFAULT false, "two_factor_enabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_email" ON "user" ("email") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_username" ON "user" ("username") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_uuid" ON "user" ("uuid") `);
        await queryRunner.query(`CREATE TABLE "api_key" ("id" BIGSERIAL NOT NULL, "identifier" character varying(16) NOT NULL, "user_id" bigint NOT NULL, "name" character varying(100) NOT NULL, "key_hash" character(64) NOT NULL, "start" character varying(6) NOT NULL, "permissions" text array NOT NULL DEFAULT '{}', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_api_key" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_api_key_user_id" ON "api_key" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_key_key_hash" ON "api_key" ("key_hash") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_key_identifier" ON "api_key" ("identifier") `);
        await queryRunner.query(`CREATE TABLE "session" ("id" uuid NOT NULL, "user_id" bigint NOT NULL, "token_hash" character(64) NOT NULL, "ip" character varying(64), "user_agent" character varying(512), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "refreshed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_session" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_session_user_id" ON "session" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_session_token_hash" ON "session" ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "api_key" ADD CONSTRAINT "FK_api_key_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "session" ADD CONSTRAINT "FK_session_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "session" DROP CONSTRAINT "FK_session_user"`);
        await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_api_key_user"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_session_token_hash"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_session_user_id"`);
        await queryRunner.query(`DROP TABLE "session"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_api_key_identifier"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_api_key_key_hash"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_api_key_user_id"`);
        await queryRunner.query(`DROP TABLE "api_key"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_uuid"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_username"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_email"`);
        await queryRunner.query(`DROP TABLE "user"`);
    }

}
