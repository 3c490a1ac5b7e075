import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Administrator roles (docs/permissions.md#administrator-roles), the roles each user holds, and the
 * admin scopes of the areas that had none of their own. Every process keeps the roles in memory: a
 * change notifies `hatchery_changes` once per statement, as panel_setting does.
 */
export class AddAdminRoles1796000000000 implements MigrationInterface {
    name = 'AddAdminRoles1796000000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "admin_role" ("id" BIGSERIAL NOT NULL, "name" character varying(64) NOT NULL, "permissions" jsonb NOT NULL, "node_ids" bigint array NOT NULL DEFAULT '{}', "all_nodes" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_admin_role" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_admin_role_name" ON "admin_role" ("name") `);
        await queryRunner.query(`ALTER TABLE "user" ADD "admin_role_ids" bigint array NOT NULL DEFAULT '{}'`);
        await queryRunner.query(`CREATE TRIGGER "hatchery_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "admin_role" FOR EACH STATEMENT EXECUTE FUNCTION "hatchery_notify_table_change"()`);
        // Locations, mounts and backup hosts were under the nodes scopes, database hosts under the
        // servers scopes, the audit log under users.read: a key keeps reaching what it reached.
        const follow: [string, string[]][] = [
            ["nodes.read", ["locations.read", "mounts.read", "backup_hosts.read"]],
            ["nodes.write", ["locations.write", "mounts.write", "backup_hosts.write"]],
            ["servers.read", ["database_hosts.read"]],
            ["servers.write", ["database_hosts.write"]],
            ["users.read", ["audit.read"]],
        ];
        for (const [old, added] of follow) {
            await queryRunner.query(`UPDATE "api_key" SET "permissions" = "permissions" || $1::text[] WHERE $2 = ANY("permissions")`, [added, old]);
        }
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "api_key" SET "permissions" = ARRAY(SELECT p FROM unnest("permissions") AS p WHERE p NOT IN ('locations.read', 'locations.write', 'mounts.read', 'mounts.write', 'backup_hosts.read', 'backup_hosts.write', 'database_hosts.read', 'database_hosts.write', 'audit.read'))`);
        await queryRunner.query(`DROP TRIGGER "hatchery_changes" ON "admin_role"`);
        await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "admin_role_ids"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_admin_role_name"`);
        await queryRunner.query(`DROP TABLE "admin_role"`);
    }

}
