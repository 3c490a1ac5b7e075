import { MigrationInterface, QueryRunner } from "typeorm";

export class AddExternalIds1795557281824 implements MigrationInterface {
    name = 'AddExternalIds1795557281824'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user" ADD "external_id" character varying(191)`);
        await queryRunner.query(`ALTER TABLE "server" ADD "external_id" character varying(191)`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_external_id" ON "user" ("external_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_external_id" ON "server" ("external_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."UQ_server_external_id"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_user_external_id"`);
        await queryRunner.query(`ALTER TABLE "server" DROP COLUMN "external_id"`);
        await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "external_id"`);
    }

}
