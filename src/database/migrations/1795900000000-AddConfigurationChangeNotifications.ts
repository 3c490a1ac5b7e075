import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written, like AddChangeNotifications: the tables servers' cached Wings configurations are
 * built from, and nothing else caches (CONFIGURATION_TABLES in src/common/hot-cache/row-changes.ts),
 * notify `hatchery_changes` with `<table>:*` once per statement. Every panel process then drops all
 * its cached configurations; PostgreSQL sends one notification per table and transaction however
 * many rows a statement (or an import) writes. Two of them (mount_node, mount_server) have no `id`
 * for the row-level function.
 */
const TABLES = ["egg_variable", "server_variable", "location", "mount", "mount_node", "mount_server"];

export class AddConfigurationChangeNotifications1795900000000 implements MigrationInterface {
    name = 'AddConfigurationChangeNotifications1795900000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE FUNCTION "hatchery_notify_table_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hatchery_changes', TG_TABLE_NAME || ':*');
    RETURN NULL;
END
$$`);
        for (const table of TABLES) {
            await queryRunner.query(`CREATE TRIGGER "hatchery_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_notify_table_change"()`);
        }
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const table of [...TABLES].reverse()) {
            await queryRunner.query(`DROP TRIGGER "hatchery_changes" ON "${table}"`);
        }
        await queryRunner.query(`DROP FUNCTION "hatchery_notify_table_change"()`);
    }

}
