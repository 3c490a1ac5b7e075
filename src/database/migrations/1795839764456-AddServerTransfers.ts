import { MigrationInterface, QueryRunner } from "typeorm";

export class AddServerTransfers1795839764456 implements MigrationInterface {
    name = 'AddServerTransfers1795839764456'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "server_transfer" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "old_node_id" bigint NOT NULL, "new_node_id" bigint NOT NULL, "old_allocation_id" bigint, "old_additional_allocation_ids" bigint array NOT NULL DEFAULT '{}', "new_allocation_id" bigint NOT NULL, "new_additional_allocation_ids" bigint array NOT NULL DEFAULT '{}', "state" character varying(16) NOT NULL, "reason" text, "history" jsonb NOT NULL DEFAULT '[]', "drain_id" bigint, "progressed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_server_transfer" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_server_transfer_drain_id" ON "server_transfer" ("drain_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_transfer_server_id" ON "server_transfer" ("server_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_transfer_active" ON "server_transfer" ("server_id") WHERE state IN ('pending', 'archiving', 'restoring')`);
        await queryRunner.query(`CREATE TABLE "node_drain" ("id" BIGSERIAL NOT NULL, "node_id" bigint NOT NULL, "state" character varying(16) NOT NULL, "concurrency" integer NOT NULL, "target_node_ids" bigint array, "server_ids" bigint array NOT NULL, "unplaced" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_node_drain" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_node_drain_node_id" ON "node_drain" ("node_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_node_drain_running" ON "node_drain" ("node_id") WHERE state = 'running'`);
        await queryRunner.query(`ALTER TABLE "allocation" ADD "reserved_by_transfer_id" bigint`);
        await queryRunner.query(`CREATE INDEX "IDX_allocation_reserved_by_transfer_id" ON "allocation" ("reserved_by_transfer_id") `);
        await queryRunner.query(`ALTER TABLE "server_transfer" ADD CONSTRAINT "FK_server_transfer_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_transfer" ADD CONSTRAINT "FK_server_transfer_old_node" FOREIGN KEY ("old_node_id") REFERENCES "node"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_transfer" ADD CONSTRAINT "FK_server_transfer_new_node" FOREIGN KEY ("new_node_id") REFERENCES "node"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "allocation" ADD CONSTRAINT "FK_allocation_reserved_by_transfer" FOREIGN KEY ("reserved_by_transfer_id") REFERENCES "server_transfer"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "node_drain" ADD CONSTRAINT "FK_node_drain_node" FOREIGN KEY ("node_id") REFERENCES "node"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "node_drain" DROP CONSTRAINT "FK_node_drain_node"`);
        await queryRunner.query(`ALTER TABLE "allocation" DROP CONSTRAINT "FK_allocation_reserved_by_transfer"`);
        await queryRunner.query(`ALTER TABLE "server_transfer" DROP CONSTRAINT "FK_server_transfer_new_node"`);
        await queryRunner.query(`ALTER TABLE "server_transfer" DROP CONSTRAINT "FK_server_transfer_old_node"`);
        await queryRunner.query(`ALTER TABLE "server_transfer" DROP CONSTRAINT "FK_server_transfer_server"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_allocation_reserved_by_transfer_id"`);
        await queryRunner.query(`ALTER TABLE "allocation" DROP COLUMN "reserved_by_transfer_id"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_node_drain_running"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_node_drain_node_id"`);
        await queryRunner.query(`DROP TABLE "node_drain"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_server_transfer_active"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_transfer_server_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_transfer_drain_id"`);
        await queryRunner.query(`DROP TABLE "server_transfer"`);
    }

}
