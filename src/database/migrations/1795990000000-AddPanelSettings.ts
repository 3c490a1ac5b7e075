import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Settings administrators change at run time (`/api/admin/settings`). Each process holds them in
 * memory: a change notifies `hatchery_changes` once per statement (as AddConfigurationChangeNotifications
 * does for its tables), and every process reloads them.
 */
export class AddPanelSettings1795990000000 implements MigrationInterface {
    name = 'AddPanelSettings1795990000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "panel_setting" ("key" character varying(64) NOT NULL, "value" jsonb NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_panel_setting" PRIMARY KEY ("key"))`);
        await queryRunner.query(`CREATE TRIGGER "hatchery_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "panel_setting" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_notify_table_change"()`);
        // As AddWebhooks did for its scopes: a key that held every admin scope keeps holding every one.
        await queryRunner.query(`UPDATE "api_key" SET "permissions" = "permissions" || ARRAY['settings.read', 'settings.write'] WHERE "permissions" @> ARRAY['servers.read', 'servers.write', 'users.read', 'users.write', 'nodes.read', 'nodes.write', 'eggs.read', 'eggs.write', 'webhooks.read', 'webhooks.write']`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "api_key" SET "permissions" = array_remove(array_remove("permissions", 'settings.read'), 'settings.write')`);
        await queryRunner.query(`DROP TRIGGER "hatchery_changes" ON "panel_setting"`);
        await queryRunner.query(`DROP TABLE "panel_setting"`);
    }

}
