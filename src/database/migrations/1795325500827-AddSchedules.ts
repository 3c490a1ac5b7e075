import { MigrationInterface, QueryRunner } from "typeorm";

export class AddSchedules1795325500827 implements MigrationInterface {
    name = 'AddSchedules1795325500827'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "schedule" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "name" character varying(191) NOT NULL, "cron_minute" character varying(191) NOT NULL, "cron_hour" character varying(191) NOT NULL, "cron_day_of_month" character varying(191) NOT NULL, "cron_month" character varying(191) NOT NULL, "cron_day_of_week" character varying(191) NOT NULL, "is_active" boolean NOT NULL DEFAULT true, "is_processing" boolean NOT NULL DEFAULT false, "only_when_online" boolean NOT NULL DEFAULT false, "claim_token" uuid, "processing_since" TIMESTAMP WITH TIME ZONE, "last_run_at" TIMESTAMP WITH TIME ZONE, "next_run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_schedule" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_schedule_due" ON "schedule" ("is_active", "next_run_at") `);
        await queryRunner.query(`CREATE INDEX "IDX_schedule_server_id" ON "schedule" ("server_id") `);
        await queryRunner.query(`CREATE TABLE "schedule_task" ("id" BIGSERIAL NOT NULL, "schedule_id" bigint NOT NULL, "sequence_id" integer NOT NULL, "action" character varying(16) NOT NULL, "payload" text NOT NULL DEFAULT '', "time_offset" integer NOT NULL DEFAULT '0', "continue_on_failure" boolean NOT NULL DEFAULT false, "is_queued" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_schedule_task_sequence" UNIQUE ("schedule_id", "sequence_id") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_schedule_task" PRIMARY KEY ("id"))`);
        await queryRunner.query(`ALTER TABLE "schedule" ADD CONSTRAINT "FK_schedule_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "schedule_task" ADD CONSTRAINT "FK_schedule_task_schedule" FOREIGN KEY ("schedule_id") REFERENCES "schedule"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "schedule_task" DROP CONSTRAINT "FK_schedule_task_schedule"`);
        await queryRunner.query(`ALTER TABLE "schedule" DROP CONSTRAINT "FK_schedule_server"`);
        await queryRunner.query(`DROP TABLE "schedule_task"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_schedule_server_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_schedule_due"`);
        await queryRunner.query(`DROP TABLE "schedule"`);
    }

}
