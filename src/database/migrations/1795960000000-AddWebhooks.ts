import { MigrationInterface, QueryRunner } from "typeorm";

/** Webhooks (docs/webhooks.md): endpoints, their queued deliveries and each attempt, and when each alert was last sent. */
export class AddWebhooks1795960000000 implements MigrationInterface {
    name = 'AddWebhooks1795960000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook" ("id" BIGSERIAL NOT NULL, "server_id" bigint, "name" character varying(64) NOT NULL, "kind" character varying(16) NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "secret" text, "enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_webhook" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_webhook_server_id" ON "webhook" ("server_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_delivery" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "webhook_id" bigint NOT NULL, "event" character varying(32) NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "test" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_webhook_delivery" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_webhook_delivery_due" ON "webhook_delivery" ("next_attempt_at") WHERE "status" = 'pending'`);
        await queryRunner.query(`CREATE INDEX "IDX_webhook_delivery_webhook_id_id" ON "webhook_delivery" ("webhook_id", "id") `);
        await queryRunner.query(`CREATE TABLE "webhook_delivery_attempt" ("id" BIGSERIAL NOT NULL, "delivery_id" bigint NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "status_code" integer, "error" character varying(500), "duration_ms" integer NOT NULL, CONSTRAINT "PK_webhook_delivery_attempt" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_webhook_delivery_attempt_delivery_id" ON "webhook_delivery_attempt" ("delivery_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_alert" ("subject" character varying(64) NOT NULL, "event" character varying(32) NOT NULL, "last_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_webhook_alert" PRIMARY KEY ("subject", "event"))`);
        await queryRunner.query(`ALTER TABLE "webhook" ADD CONSTRAINT "FK_webhook_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_webhook_delivery_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery_attempt" ADD CONSTRAINT "FK_webhook_delivery_attempt_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        // A key that held every admin scope keeps holding every one, the two new ones included: it is
        // not "limited" now (which would bar it from managing credentials).
        await queryRunner.query(`UPDATE "api_key" SET "permissions" = "permissions" || ARRAY['webhooks.read', 'webhooks.write'] WHERE "permissions" @> ARRAY['servers.read', 'servers.write', 'users.read', 'users.write', 'nodes.read', 'nodes.write', 'eggs.read', 'eggs.write']`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "api_key" SET "permissions" = array_remove(array_remove("permissions", 'webhooks.read'), 'webhooks.write')`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery_attempt" DROP CONSTRAINT "FK_webhook_delivery_attempt_delivery"`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_webhook_delivery_webhook"`);
        await queryRunner.query(`ALTER TABLE "webhook" DROP CONSTRAINT "FK_webhook_server"`);
        await queryRunner.query(`DROP TABLE "webhook_alert"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_attempt_delivery_id"`);
        await queryRunner.query(`DROP TABLE "webhook_delivery_attempt"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_webhook_id_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_due"`);
        await queryRunner.query(`DROP TABLE "webhook_delivery"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_webhook_server_id"`);
        await queryRunner.query(`DROP TABLE "webhook"`);
    }

}
