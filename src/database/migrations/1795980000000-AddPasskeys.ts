import { MigrationInterface, QueryRunner } from "typeorm";

/** Passkeys (docs/api.md#passkeys): the credentials, the WebAuthn challenges awaiting an answer, and user.has_passkey (kept with the rows). */
export class AddPasskeys1795980000000 implements MigrationInterface {
    name = 'AddPasskeys1795980000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "passkey_challenge" ("id" BIGSERIAL NOT NULL, "challenge_hash" character(64) NOT NULL, "ceremony" character varying(16) NOT NULL, "user_id" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_passkey_challenge" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_passkey_challenge_expires_at" ON "passkey_challenge" ("expires_at") `);
        await queryRunner.query(`CREATE INDEX "IDX_passkey_challenge_user_id" ON "passkey_challenge" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_passkey_challenge_hash" ON "passkey_challenge" ("challenge_hash") `);
        await queryRunner.query(`CREATE TABLE "passkey" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "name" character varying(191) NOT NULL, "credential_id" text NOT NULL, "public_key" text NOT NULL, "counter" bigint NOT NULL DEFAULT '0', "transports" text array NOT NULL DEFAULT '{}', "backed_up" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_passkey" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_passkey_user_id" ON "passkey" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_passkey_credential_id" ON "passkey" ("credential_id") `);
        await queryRunner.query(`ALTER TABLE "user" ADD "has_passkey" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "passkey_challenge" ADD CONSTRAINT "FK_passkey_challenge_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "passkey" ADD CONSTRAINT "FK_passkey_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "passkey" DROP CONSTRAINT "FK_passkey_user"`);
        await queryRunner.query(`ALTER TABLE "passkey_challenge" DROP CONSTRAINT "FK_passkey_challenge_user"`);
        await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "has_passkey"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_passkey_credential_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_passkey_user_id"`);
        await queryRunner.query(`DROP TABLE "passkey"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_passkey_challenge_hash"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_passkey_challenge_user_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_passkey_challenge_expires_at"`);
        await queryRunner.query(`DROP TABLE "passkey_challenge"`);
    }

}
