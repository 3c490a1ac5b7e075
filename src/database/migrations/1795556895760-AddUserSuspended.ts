import { MigrationInterface, QueryRunner } from "typeorm";

export class AddUserSuspended1795556895760 implements MigrationInterface {
    name = 'AddUserSuspended1795556895760'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user" ADD "suspended" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "suspended"`);
    }
}
