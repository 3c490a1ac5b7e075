import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written (triggers are not in the entities, so there is nothing to generate): every write to a
 * table the panel's caches read notifies `hatchery_changes` with `<table>:<id>` (`<table>:*` for a
 * TRUNCATE), which every panel process's ChangeFeed hears at commit. A trigger's arguments name the
 * bookkeeping columns of its table (src/common/hot-cache/row-changes.ts, BOOKKEEPING): an update
 * of only those says nothing, unless it moves `expires_at` earlier. NOTIFY with nobody listening
 * (the embedded database) is dropped at commit.
 */
const WATCHED: [table: string, bookkeeping: string[]][] = [
    ["user", []],
    ["api_key", ["last_used_at"]],
    ["session", ["last_seen_at", "refreshed_at", "expires_at"]],
    ["server", []],
    // TypeORM sets updated_at on every update of a node, touchNode's included.
    ["node", ["last_seen_at", "updated_at"]],
    ["egg", []],
    ["allocation", []],
    ["subuser", []],
];

const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

export class AddChangeNotifications1795336765267 implements MigrationInterface {
    name = 'AddChangeNotifications1795336765267'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE FUNCTION "hatchery_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_row jsonb;
    new_row jsonb;
    row_id text;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('hatchery_changes', TG_TABLE_NAME || ':*');
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND TG_NARGS > 0 THEN
        old_row := to_jsonb(OLD);
        new_row := to_jsonb(NEW);
        IF (old_row - TG_ARGV) = (new_row - TG_ARGV)
            AND NOT ('expires_at' = ANY (TG_ARGV)
                AND (new_row ->> 'expires_at')::timestamptz < (old_row ->> 'expires_at')::timestamptz) THEN
            RETURN NULL;
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        row_id := OLD.id::text;
    ELSE
        row_id := NEW.id::text;
    END IF;
    PERFORM pg_notify('hatchery_changes', TG_TABLE_NAME || ':' || row_id);
    RETURN NULL;
END
$$`);
        for (const [table, bookkeeping] of WATCHED) {
            await queryRunner.query(`CREATE TRIGGER "hatchery_changes" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "hatchery_notify_change"(${bookkeeping.map(literal).join(", ")})`);
            await queryRunner.query(`CREATE TRIGGER "hatchery_changes_truncate" AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_notify_change"()`);
        }
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const [table] of [...WATCHED].reverse()) {
            await queryRunner.query(`DROP TRIGGER "hatchery_changes_truncate" ON "${table}"`);
            await queryRunner.query(`DROP TRIGGER "hatchery_changes" ON "${table}"`);
        }
        await queryRunner.query(`DROP FUNCTION "hatchery_notify_change"()`);
    }

}
