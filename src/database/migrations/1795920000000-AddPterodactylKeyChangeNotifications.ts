import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written, like AddChangeNotifications (whose row-level function it reuses): Pterodactyl keys are
 * cached by identifier in every panel process (HotCaches.pterodactylKeys), so every write to
 * `pterodactyl_api_key` notifies `hatchery_changes` with `pterodactyl_api_key:<id>`, and a revocation
 * or a change of permissions or allowed addresses reaches every process, whoever made it (the API, an
 * import, psql). An update of only `last_used_at` (bookkeeping, written at most once a minute) says
 * nothing.
 */
export class AddPterodactylKeyChangeNotifications1795920000000 implements MigrationInterface {
    name = 'AddPterodactylKeyChangeNotifications1795920000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TRIGGER "hatchery_changes" AFTER INSERT OR UPDATE OR DELETE ON "pterodactyl_api_key" FOR EACH ROW EXECUTE FUNCTION "hatchery_notify_change"('last_used_at')`);
        await queryRunner.query(`CREATE TRIGGER "hatchery_changes_truncate" AFTER TRUNCATE ON "pterodactyl_api_key" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_notify_change"()`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER "hatchery_changes_truncate" ON "pterodactyl_api_key"`);
        await queryRunner.query(`DROP TRIGGER "hatchery_changes" ON "pterodactyl_api_key"`);
    }

}
