import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written: the usage history (src/modules/usage). Four tables partitioned by day on `at`, so that
 * old data goes by dropping a day's partition, never by deleting rows: a running server's one-minute
 * points (kept 48 hours) and their 15-minute rollups (90 days), and the same per node. The sampler
 * creates each day's partitions before it writes into them (usage-partitions.ts); none exists here.
 *
 * A server's points are keyed by its uuid, which Wings reports and which follows it from node to node;
 * they reference nothing, so a deleted server's points simply age out with their partitions. CPU is in
 * percent of one core, network in bytes received or sent during the point's interval. No row for a
 * server in a minute means it was not running (or its node did not answer: see node_usage).
 */
export class AddUsageHistory1795950000000 implements MigrationInterface {
    name = 'AddUsageHistory1795950000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "server_usage" ("server_uuid" uuid NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "cpu" real NOT NULL, "memory_bytes" bigint NOT NULL, "disk_bytes" bigint NOT NULL, "rx_bytes" bigint NOT NULL, "tx_bytes" bigint NOT NULL, CONSTRAINT "PK_server_usage" PRIMARY KEY ("server_uuid", "at")) PARTITION BY RANGE ("at")`);
        await queryRunner.query(`CREATE TABLE "server_usage_15m" ("server_uuid" uuid NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "cpu" real NOT NULL, "cpu_max" real NOT NULL, "memory_bytes" bigint NOT NULL, "memory_max_bytes" bigint NOT NULL, "disk_bytes" bigint NOT NULL, "rx_bytes" bigint NOT NULL, "tx_bytes" bigint NOT NULL, "samples" smallint NOT NULL, CONSTRAINT "PK_server_usage_15m" PRIMARY KEY ("server_uuid", "at")) PARTITION BY RANGE ("at")`);
        await queryRunner.query(`CREATE TABLE "node_usage" ("node_id" bigint NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "reachable" boolean NOT NULL, "servers_running" integer NOT NULL, "cpu" real NOT NULL, "memory_bytes" bigint NOT NULL, "disk_bytes" bigint NOT NULL, "rx_bytes" bigint NOT NULL, "tx_bytes" bigint NOT NULL, CONSTRAINT "PK_node_usage" PRIMARY KEY ("node_id", "at")) PARTITION BY RANGE ("at")`);
        await queryRunner.query(`CREATE TABLE "node_usage_15m" ("node_id" bigint NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "reachable_samples" smallint NOT NULL, "servers_running" integer NOT NULL, "cpu" real NOT NULL, "cpu_max" real NOT NULL, "memory_bytes" bigint NOT NULL, "memory_max_bytes" bigint NOT NULL, "disk_bytes" bigint NOT NULL, "rx_bytes" bigint NOT NULL, "tx_bytes" bigint NOT NULL, "samples" smallint NOT NULL, CONSTRAINT "PK_node_usage_15m" PRIMARY KEY ("node_id", "at")) PARTITION BY RANGE ("at")`);
        // The points of one instant (the rollups' windows, the metrics' latest sample) by time, across servers and nodes.
        await queryRunner.query(`CREATE INDEX "IDX_server_usage_at" ON "server_usage" ("at")`);
        await queryRunner.query(`CREATE INDEX "IDX_node_usage_at" ON "node_usage" ("at")`);
        // How far the minute points have been rolled up: the sampler rolls every whole 15 minutes after it.
        await queryRunner.query(`CREATE TABLE "usage_rollup_mark" ("id" smallint NOT NULL, "rolled_until" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_usage_rollup_mark" PRIMARY KEY ("id"), CONSTRAINT "CHK_usage_rollup_mark_one" CHECK ("id" = 1))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "usage_rollup_mark"`);
        await queryRunner.query(`DROP TABLE "node_usage_15m"`);
        await queryRunner.query(`DROP TABLE "node_usage"`);
        await queryRunner.query(`DROP TABLE "server_usage_15m"`);
        await queryRunner.query(`DROP TABLE "server_usage"`);
    }

}
