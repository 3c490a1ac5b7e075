import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Where a schedule's run has got to: the sequence_id of the last task it began (0 before the first),
 * null when no run is under way. A run whose process died keeps it when its claim is freed, and the next
 * claim goes on after that task instead of dropping the rest. And which panel process holds the claim
 * (`<host>:<pid>`), for operators of several processes.
 */
export class AddScheduleRunProgress1796010000000 implements MigrationInterface {
    name = 'AddScheduleRunProgress1796010000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "schedule" ADD "run_progress" integer`);
        await queryRunner.query(`ALTER TABLE "schedule" ADD "claimed_by" character varying(191)`);
        await queryRunner.query(`CREATE INDEX "IDX_schedule_run_progress" ON "schedule" ("run_progress") WHERE "run_progress" IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "IDX_schedule_run_progress"`);
        await queryRunner.query(`ALTER TABLE "schedule" DROP COLUMN "claimed_by"`);
        await queryRunner.query(`ALTER TABLE "schedule" DROP COLUMN "run_progress"`);
    }

}
