import { MigrationInterface, QueryRunner } from "typeorm";

export class AddUserLanguage1795828933876 implements MigrationInterface {
    name = 'AddUserLanguage1795828933876'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user" ADD "language" character varying(5) NOT NULL DEFAULT 'en'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "language"`);
    }

}
