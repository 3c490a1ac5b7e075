import { MigrationInterface, QueryRunner } from "typeorm";

export class AddTwoFactorChallenges1795534712689 implements MigrationInterface {
    name = 'AddTwoFactorChallenges1795534712689'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "two_factor_challenge" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "token_hash" character(64) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_two_factor_challenge" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_two_factor_challenge_user_id" ON "two_factor_challenge" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_two_factor_challenge_hash" ON "two_factor_challenge" ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "two_factor_challenge" ADD CONSTRAINT "FK_two_factor_challenge_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "two_factor_challenge" DROP CONSTRAINT "FK_two_factor_challenge_user"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_two_factor_challenge_hash"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_two_factor_challenge_user_id"`);
        await queryRunner.query(`DROP TABLE "two_factor_challenge"`);
    }

}
