import { MigrationInterface, QueryRunner } from "typeorm";

export class AddNodeDaemonContactedAt1795783510512 implements MigrationInterface {
    name = 'AddNodeDaemonContactedAt1795783510512'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "node" ADD "daemon_contacted_at" TIMESTAMP WITH TIME ZONE`);
        // A node whose daemon has called the panel has been heard from.
        await queryRunner.query(`UPDATE "node" SET "daemon_contacted_at" = "last_seen_at" WHERE "last_seen_at" IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "node" DROP COLUMN "daemon_contacted_at"`);
    }

}
