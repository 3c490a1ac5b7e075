import { MigrationInterface, QueryRunner } from "typeorm";

/** A log table as it is, to be remade partitioned by month of created_at (or back). */
interface LogTable {
    name: 'audit_log' | 'server_activity';
    columns: string;
    /** Column names in order, for copying rows over. */
    list: string;
    foreignKeys: string[];
    indexes: string[];
}

const TABLES: LogTable[] = [
    {
        name: 'audit_log',
        columns: `"id" bigint NOT NULL DEFAULT nextval('audit_log_id_seq'), "actor_id" bigint, "actor_username" character varying(191), "via" character varying(32),
            "action" character varying(64) NOT NULL, "target_type" character varying(32) NOT NULL, "target_id" character varying(64) NOT NULL,
            "changes" jsonb NOT NULL DEFAULT '{}', "ip" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL`,
        list: `"id", "actor_id", "actor_username", "via", "action", "target_type", "target_id", "changes", "ip", "created_at"`,
        foreignKeys: [`CONSTRAINT "FK_audit_log_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE NO ACTION`],
        indexes: [
            `CREATE INDEX "IDX_audit_log_action" ON "audit_log" ("action", "id")`,
            `CREATE INDEX "IDX_audit_log_actor_id" ON "audit_log" ("actor_id", "id")`,
            `CREATE INDEX "IDX_audit_log_created_at" ON "audit_log" ("created_at")`,
            `CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id", "id")`,
        ],
    },
    {
        name: 'server_activity',
        columns: `"id" bigint NOT NULL DEFAULT nextval('server_activity_id_seq'), "server_id" bigint NOT NULL, "actor_id" bigint, "actor_username" character varying(191),
            "event" character varying(64) NOT NULL, "metadata" jsonb NOT NULL DEFAULT '{}', "ip" character varying(64), "via" character varying(32),
            "created_at" TIMESTAMP WITH TIME ZONE NOT NULL`,
        list: `"id", "server_id", "actor_id", "actor_username", "event", "metadata", "ip", "via", "created_at"`,
        foreignKeys: [
            `CONSTRAINT "FK_server_activity_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
            `CONSTRAINT "FK_server_activity_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
        ],
        indexes: [
            `CREATE INDEX "IDX_server_activity_created_at" ON "server_activity" USING brin ("created_at")`,
            `CREATE INDEX "IDX_server_activity_server_event" ON "server_activity" ("server_id", "event", "created_at", "id")`,
            `CREATE INDEX "IDX_server_activity_server_time" ON "server_activity" ("server_id", "created_at", "id")`,
        ],
    },
];

const triggers = (table: LogTable['name']): string[] => [
    `CREATE TRIGGER "${table}_count_insert" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_${table}"()`,
    `CREATE TRIGGER "${table}_count_delete" AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_${table}"()`,
    `CREATE TRIGGER "${table}_count_truncate" AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_count_${table}"()`,
];

const dropTriggers = (table: LogTable['name']): string[] =>
    ['insert', 'delete', 'truncate'].map((op) => `DROP TRIGGER "${table}_count_${op}" ON "${table}"`);

/**
 * Drops the count triggers, renames the table and its primary key to `<name>_<suffix>` and drops its
 * foreign keys and indexes: the remade table takes their names.
 */
const setAside = async (queryRunner: QueryRunner, table: LogTable, suffix: string): Promise<void> => {
    const { name } = table;
    for (const sql of dropTriggers(name)) {
        await queryRunner.query(sql);
    }
    await queryRunner.query(`ALTER TABLE "${name}" RENAME TO "${name}_${suffix}"`);
    await queryRunner.query(`ALTER TABLE "${name}_${suffix}" RENAME CONSTRAINT "PK_${name}" TO "PK_${name}_${suffix}"`);
    for (const fk of table.foreignKeys) {
        await queryRunner.query(`ALTER TABLE "${name}_${suffix}" DROP CONSTRAINT "${/CONSTRAINT "([^"]+)"/.exec(fk)![1]}"`);
    }
    for (const index of table.indexes) {
        await queryRunner.query(`DROP INDEX "${/INDEX "([^"]+)"/.exec(index)![1]}"`);
    }
};

/** Gives the remade table the sequence, its indexes and the rows of `<name>_<suffix>` (then dropped), and the count triggers. */
const fillFrom = async (queryRunner: QueryRunner, table: LogTable, suffix: string): Promise<void> => {
    const { name } = table;
    await queryRunner.query(`ALTER SEQUENCE "${name}_id_seq" OWNED BY "${name}"."id"`);
    for (const index of table.indexes) {
        await queryRunner.query(index);
    }
    await queryRunner.query(`INSERT INTO "${name}" (${table.list}) SELECT ${table.list} FROM "${name}_${suffix}"`);
    await queryRunner.query(`DROP TABLE "${name}_${suffix}"`);
    for (const sql of triggers(name)) {
        await queryRunner.query(sql);
    }
};

/**
 * The audit log and the server activity log partitioned by month of created_at (`audit_log_p202611`,
 * range [2026-11-01, 2026-12-01) UTC), so that retention can drop a month whole once every category
 * it holds is past its retention (src/database/log-partitions.ts makes the months ahead and
 * drops them). A DEFAULT partition (`audit_log_default`) takes what no month holds. The primary key
 * becomes (id, created_at): a partitioned table's unique keys hold its partition key. Rows, ids (the
 * sequences), indexes, foreign keys and the count triggers (their counts unchanged) carry over; the
 * months made are those of the rows (ten years back at most: older ones go to the DEFAULT partition)
 * to two months ahead.
 */
export class PartitionLogsByMonth1796020000000 implements MigrationInterface {
    name = 'PartitionLogsByMonth1796020000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        for (const table of TABLES) {
            const { name } = table;
            await setAside(queryRunner, table, 'unpartitioned');
            await queryRunner.query(
                `CREATE TABLE "${name}" (${table.columns}, CONSTRAINT "PK_${name}" PRIMARY KEY ("id", "created_at"), ${table.foreignKeys.join(', ')}) PARTITION BY RANGE ("created_at")`,
            );
            await queryRunner.query(`CREATE TABLE "${name}_default" PARTITION OF "${name}" DEFAULT`);
            await queryRunner.query(`DO $$
DECLARE
    m date;
    last date := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months')::date;
BEGIN
    SELECT GREATEST(date_trunc('month', COALESCE(min("created_at"), now()) AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC') - interval '120 months')::date
        INTO m FROM "${name}_unpartitioned";
    WHILE m <= last LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', '${name}_p' || to_char(m, 'YYYYMM'), '${name}',
            to_char(m, 'YYYY-MM-DD') || ' 00:00:00+00', to_char((m + interval '1 month')::date, 'YYYY-MM-DD') || ' 00:00:00+00');
        m := (m + interval '1 month')::date;
    END LOOP;
END $$`);
            await fillFrom(queryRunner, table, 'unpartitioned');
        }
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const table of [...TABLES].reverse()) {
            const { name } = table;
            await setAside(queryRunner, table, 'partitioned');
            await queryRunner.query(`CREATE TABLE "${name}" (${table.columns}, CONSTRAINT "PK_${name}" PRIMARY KEY ("id"), ${table.foreignKeys.join(', ')})`);
            await fillFrom(queryRunner, table, 'partitioned');
        }
    }

}
