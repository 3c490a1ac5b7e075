import { MigrationInterface, QueryRunner } from "typeorm";

export class AddTwoFactorAndPasswordResets1795327621174 implements MigrationInterface {
    name = 'AddTwoFactorAndPasswordResets1795327621174'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "password_reset_token" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_password_reset_token" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_password_reset_token_user_id" ON "password_reset_token" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_password_reset_token_hash" ON "password_reset_token" ("token_hash") `);
        await queryRunner.query(`CREATE TABLE "user_recovery_code" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "code_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_user_recovery_code" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_recovery_code_user_hash" ON "user_recovery_code" ("user_id", "code_hash") `);
        await queryRunner.query(`CREATE TABLE "user_two_factor" ("user_id" bigint NOT NULL, "secret_sealed" text NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "last_used_step" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_user_two_factor" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`ALTER TABLE "password_reset_token" ADD CONSTRAINT "FK_password_reset_token_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "user_recovery_code" ADD CONSTRAINT "FK_user_recovery_code_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "user_two_factor" ADD CONSTRAINT "FK_user_two_factor_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_two_factor" DROP CONSTRAINT "FK_user_two_factor_user"`);
        await queryRunner.query(`ALTER TABLE "user_recovery_code" DROP CONSTRAINT "FK_user_recovery_code_user"`);
        await queryRunner.query(`ALTER TABLE "password_reset_token" DROP CONSTRAINT "FK_password_reset_token_user"`);
        await queryRunner.query(`DROP TABLE "user_two_factor"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_recovery_code_user_hash"`);
        await queryRunner.query(`DROP TABLE "user_recovery_code"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_password_reset_token_hash"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_password_reset_token_user_id"`);
        await queryRunner.query(`DROP TABLE "password_reset_token"`);
    }

}
