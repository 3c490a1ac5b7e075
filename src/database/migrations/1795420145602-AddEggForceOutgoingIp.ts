import { MigrationInterface, QueryRunner } from "typeorm";

export class AddEggForceOutgoingIp1795420145602 implements MigrationInterface {
    name = 'AddEggForceOutgoingIp1795420145602'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "egg" ADD "force_outgoing_ip" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "egg" DROP COLUMN "force_outgoing_ip"`);
    }
}
