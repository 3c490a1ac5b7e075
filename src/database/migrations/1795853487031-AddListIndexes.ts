import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written (expression indexes, triggers and a table no entity maps): what keeps the lists as
 * cheap with 100,000 servers as with 1,000.
 *
 * - pg_trgm GIN indexes behind every `ILIKE '%…%'` a search or a list filter runs (patterns of three
 *   characters or more use them; shorter ones still match, by a scan). An allocation's address is
 *   indexed as `ip || ':' || port::text`, which also holds every match of its ip alone. Without
 *   fastupdate: rows are written into the index at once, not kept in a pending list that every
 *   search reads until a vacuum (the embedded PGlite never runs autovacuum).
 * - (owner_id, id) and (node_id, id): a user's or a node's servers in id order, counted from the index.
 * - server_totals: how many servers each node holds and the memory and disk (MiB) they are given, kept
 *   by statement triggers in the transaction that inserts, changes or deletes servers: the total of the
 *   unfiltered server list is a sum over nodes, and what a node's servers take is one row. No foreign
 *   key: a deleted node's row stays at 0.
 */
const TRGM: [name: string, table: string, expression: string][] = [
    ["IDX_server_name_trgm", "server", `"name"`],
    ["IDX_server_description_trgm", "server", `"description"`],
    ["IDX_server_uuid_trgm", "server", `("uuid"::text)`],
    ["IDX_server_identifier_trgm", "server", `"identifier"`],
    ["IDX_server_external_id_trgm", "server", `"external_id"`],
    ["IDX_server_image_trgm", "server", `"image"`],
    ["IDX_user_username_trgm", "user", `"username"`],
    ["IDX_user_email_trgm", "user", `"email"`],
    ["IDX_user_name_trgm", "user", `"name"`],
    ["IDX_user_uuid_trgm", "user", `("uuid"::text)`],
    ["IDX_user_external_id_trgm", "user", `"external_id"`],
    ["IDX_allocation_address_trgm", "allocation", `("ip" || ':' || "port"::text)`],
    ["IDX_allocation_alias_trgm", "allocation", `"alias"`],
];

const ADDED = `SELECT node_id, 1 AS servers, memory::bigint AS memory, disk::bigint AS disk FROM new_rows`;
const REMOVED = `SELECT node_id, -1 AS servers, -memory::bigint AS memory, -disk::bigint AS disk FROM old_rows`;
const TOTALS_FUNCTIONS: [name: string, rows: string][] = [
    ["server_totals_insert", ADDED],
    ["server_totals_delete", REMOVED],
    ["server_totals_update", `${ADDED} UNION ALL ${REMOVED}`],
];

export class AddListIndexes1795853487031 implements MigrationInterface {
    name = 'AddListIndexes1795853487031'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
        for (const [name, table, expression] of TRGM) {
            await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" USING gin (${expression} gin_trgm_ops) WITH (fastupdate = off)`);
        }
        await queryRunner.query(`DROP INDEX "public"."IDX_server_owner_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_node_id"`);
        await queryRunner.query(`CREATE INDEX "IDX_server_owner_id_id" ON "server" ("owner_id", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_node_id_id" ON "server" ("node_id", "id") `);
        await queryRunner.query(`CREATE TABLE "server_totals" ("node_id" bigint NOT NULL, "servers" bigint NOT NULL, "memory" bigint NOT NULL, "disk" bigint NOT NULL, CONSTRAINT "PK_server_totals" PRIMARY KEY ("node_id"))`);
        for (const [name, rows] of TOTALS_FUNCTIONS) {
            await queryRunner.query(`CREATE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO server_totals (node_id, servers, memory, disk)
    SELECT node_id, sum(servers), sum(memory), sum(disk) FROM (${rows}) changed GROUP BY node_id
    HAVING sum(servers) <> 0 OR sum(memory) <> 0 OR sum(disk) <> 0 ORDER BY node_id
    ON CONFLICT (node_id) DO UPDATE SET servers = server_totals.servers + excluded.servers,
        memory = server_totals.memory + excluded.memory, disk = server_totals.disk + excluded.disk;
    RETURN NULL;
END
$$`);
        }
        await queryRunner.query(`CREATE FUNCTION "server_totals_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM server_totals;
    RETURN NULL;
END
$$`);
        await queryRunner.query(`CREATE TRIGGER "server_totals_insert" AFTER INSERT ON "server" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "server_totals_insert"()`);
        await queryRunner.query(`CREATE TRIGGER "server_totals_delete" AFTER DELETE ON "server" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "server_totals_delete"()`);
        await queryRunner.query(`CREATE TRIGGER "server_totals_update" AFTER UPDATE ON "server" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "server_totals_update"()`);
        await queryRunner.query(`CREATE TRIGGER "server_totals_truncate" AFTER TRUNCATE ON "server" FOR EACH STATEMENT EXECUTE FUNCTION "server_totals_truncate"()`);
        await queryRunner.query(`INSERT INTO server_totals (node_id, servers, memory, disk) SELECT node_id, count(*), COALESCE(sum(memory), 0), COALESCE(sum(disk), 0) FROM server GROUP BY node_id`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const trigger of ["server_totals_truncate", "server_totals_update", "server_totals_delete", "server_totals_insert"]) {
            await queryRunner.query(`DROP TRIGGER "${trigger}" ON "server"`);
            await queryRunner.query(`DROP FUNCTION "${trigger}"()`);
        }
        await queryRunner.query(`DROP TABLE "server_totals"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_node_id_id"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_owner_id_id"`);
        await queryRunner.query(`CREATE INDEX "IDX_server_node_id" ON "server" ("node_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_server_owner_id" ON "server" ("owner_id") `);
        for (const [name] of [...TRGM].reverse()) {
            await queryRunner.query(`DROP INDEX "public"."${name}"`);
        }
        // pg_trgm stays: it may have been there before, and nothing of ours uses it any more.
    }

}
