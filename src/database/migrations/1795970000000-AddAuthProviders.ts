import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Single sign-on: providers administrators add (OpenID Connect issuers, Discord, GitHub, Google) and
 * the identities accounts link to them (unique per provider and subject). The settings scopes these
 * routes use came with AddPanelSettings.
 */
export class AddAuthProviders1795970000000 implements MigrationInterface {
    name = 'AddAuthProviders1795970000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "auth_provider" ("id" BIGSERIAL NOT NULL, "name" character varying(64) NOT NULL, "type" character varying(16) NOT NULL, "issuer" character varying(2048) NOT NULL, "client_id" character varying(255) NOT NULL, "client_secret" text NOT NULL, "scopes" text array NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "show_on_sign_in" boolean NOT NULL DEFAULT true, "allow_registration" boolean NOT NULL DEFAULT false, "allowed_domains" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_auth_provider" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "user_identity" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "provider_id" bigint NOT NULL, "subject" character varying(255) NOT NULL, "email" character varying(320), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_user_identity" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_user_identity_user_id" ON "user_identity" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_identity_provider_subject" ON "user_identity" ("provider_id", "subject") `);
        await queryRunner.query(`ALTER TABLE "user_identity" ADD CONSTRAINT "FK_user_identity_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "user_identity" ADD CONSTRAINT "FK_user_identity_provider" FOREIGN KEY ("provider_id") REFERENCES "auth_provider"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_identity" DROP CONSTRAINT "FK_user_identity_provider"`);
        await queryRunner.query(`ALTER TABLE "user_identity" DROP CONSTRAINT "FK_user_identity_user"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_identity_provider_subject"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_user_identity_user_id"`);
        await queryRunner.query(`DROP TABLE "user_identity"`);
        await queryRunner.query(`DROP TABLE "auth_provider"`);
    }

}
