import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Generated, then the counters' triggers and their first counts added by hand (triggers are not in
 * the entities). audit_log_count and server_activity_count hold how many rows audit_log and each
 * server's server_activity have, moved by statement triggers in the same transaction as the insert
 * or delete (a cascade and a retention sweep included), so a page's total is a sum over a few rows.
 * Each writer adds to the slot of its session (pg_backend_pid() % 8): concurrent transactions rarely
 * wait on one row. The triggers come before the first counts, and lock the tables against writes
 * until this migration commits, so no row is counted twice or missed.
 */
const SLOT = "(pg_backend_pid() % 8)::smallint";

export class AddLogCursorsAndCounts1795852714964 implements MigrationInterface {
    name = 'AddLogCursorsAndCounts1795852714964'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_target"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_action"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_activity_server_time"`);
        await queryRunner.query(`CREATE TABLE "audit_log_count" ("slot" smallint NOT NULL, "n" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_audit_log_count" PRIMARY KEY ("slot"))`);
        await queryRunner.query(`CREATE TABLE "server_activity_count" ("server_id" bigint NOT NULL, "slot" smallint NOT NULL, "n" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_server_activity_count" PRIMARY KEY ("server_id", "slot"))`);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor_id" ON "audit_log" ("actor_id", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_action" ON "audit_log" ("action", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_activity_created_at" ON "server_activity" USING brin ("created_at")`);
        await queryRunner.query(`CREATE INDEX "IDX_server_activity_server_event" ON "server_activity" ("server_id", "event", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_activity_server_time" ON "server_activity" ("server_id", "created_at", "id") `);
        await queryRunner.query(`CREATE FUNCTION "hatchery_count_audit_log"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM "audit_log_count";
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO "audit_log_count" ("slot", "n") SELECT ${SLOT}, count(*) FROM "new_rows" HAVING count(*) > 0
            ON CONFLICT ("slot") DO UPDATE SET "n" = "audit_log_count"."n" + EXCLUDED."n";
    ELSE
        INSERT INTO "audit_log_count" ("slot", "n") SELECT ${SLOT}, -count(*) FROM "old_rows" HAVING count(*) > 0
            ON CONFLICT ("slot") DO UPDATE SET "n" = "audit_log_count"."n" + EXCLUDED."n";
    END IF;
    RETURN NULL;
END $$`);
        await queryRunner.query(`CREATE TRIGGER "audit_log_count_insert" AFTER INSERT ON "audit_log" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_audit_log"()`);
        await queryRunner.query(`CREATE TRIGGER "audit_log_count_delete" AFTER DELETE ON "audit_log" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_audit_log"()`);
        await queryRunner.query(`CREATE TRIGGER "audit_log_count_truncate" AFTER TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_audit_log"()`);
        // Servers in id order, so two transactions that count for the same servers lock their slots in one order.
        await queryRunner.query(`CREATE FUNCTION "hatchery_count_server_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM "server_activity_count";
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO "server_activity_count" ("server_id", "slot", "n")
            SELECT "server_id", ${SLOT}, count(*) FROM "new_rows" GROUP BY "server_id" ORDER BY "server_id"
            ON CONFLICT ("server_id", "slot") DO UPDATE SET "n" = "server_activity_count"."n" + EXCLUDED."n";
    ELSE
        INSERT INTO "server_activity_count" ("server_id", "slot", "n")
            SELECT "server_id", ${SLOT}, -count(*) FROM "old_rows" GROUP BY "server_id" ORDER BY "server_id"
            ON CONFLICT ("server_id", "slot") DO UPDATE SET "n" = "server_activity_count"."n" + EXCLUDED."n";
        -- A deleted server's slots go with its last rows.
        DELETE FROM "server_activity_count" c WHERE c."server_id" IN (SELECT DISTINCT "server_id" FROM "old_rows")
            AND NOT EXISTS (SELECT 1 FROM "server_activity" a WHERE a."server_id" = c."server_id");
    END IF;
    RETURN NULL;
END $$`);
        await queryRunner.query(`CREATE TRIGGER "server_activity_count_insert" AFTER INSERT ON "server_activity" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_server_activity"()`);
        await queryRunner.query(`CREATE TRIGGER "server_activity_count_delete" AFTER DELETE ON "server_activity" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_server_activity"()`);
        await queryRunner.query(`CREATE TRIGGER "server_activity_count_truncate" AFTER TRUNCATE ON "server_activity" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_server_activity"()`);
        await queryRunner.query(`INSERT INTO "audit_log_count" ("slot", "n") SELECT 0, count(*) FROM "audit_log"`);
        await queryRunner.query(`INSERT INTO "server_activity_count" ("server_id", "slot", "n") SELECT "server_id", 0, count(*) FROM "server_activity" GROUP BY "server_id"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER "server_activity_count_truncate" ON "server_activity"`);
        await queryRunner.query(`DROP TRIGGER "server_activity_count_delete" ON "server_activity"`);
        await queryRunner.query(`DROP TRIGGER "server_activity_count_insert" ON "server_activity"`);
        await queryRunner.query(`DROP FUNCTION "hatchery_count_server_activity"()`);
        await queryRunner.query(`DROP TRIGGER "audit_log_count_truncate" ON "audit_log"`);
        await queryRunner.query(`DROP TRIGGER "audit_log_count_delete" ON "audit_log"`);
        await queryRunner.query(`DROP TRIGGER "audit_log_count_insert" ON "audit_log"`);
        await queryRunner.query(`DROP FUNCTION "hatchery_count_audit_log"()`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_activity_server_time"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_activity_server_event"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_activity_created_at"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_action"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_target"`);
        await queryRunner.query(`DROP TABLE "server_activity_count"`);
        await queryRunner.query(`DROP TABLE "audit_log_count"`);
        await queryRunner.query(`CREATE INDEX "IDX_server_activity_server_time" ON "server_activity" ("server_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_action" ON "audit_log" ("action") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor_id" ON "audit_log" ("actor_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id") `);
    }

}
