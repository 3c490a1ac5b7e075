import { MigrationInterface, QueryRunner } from "typeorm";

export class AddLocationsNodesAllocations1795319433215 implements MigrationInterface {
    name = 'AddLocationsNodesAllocations1795319433215'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "location" ("id" BIGSERIAL NOT NULL, "short" character varying(60) NOT NULL, "long" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_location" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_location_short" ON "location" ("short") `);
        await queryRunner.query(`CREATE TABLE "node" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "name" character varying(191) NOT NULL, "description" text, "base_url" character varying(320) NOT NULL, "fqdn" character varying(255) NOT NULL, "scheme" character varying(5) NOT NULL DEFAULT 'https', "public" boolean NOT NULL DEFAULT true, "maintenance_mode" boolean NOT NULL DEFAULT false, "allow_insecure" boolean NOT NULL DEFAULT false, "behind_proxy" boolean NOT NULL DEFAULT false, "memory" integer NOT NULL, "memory_overallocate" integer NOT NULL DEFAULT '0', "disk" integer NOT NULL, "disk_overallocate" integer NOT NULL DEFAULT '0', "upload_size" integer NOT NULL DEFAULT '100', "daemon_base" character varying(255) NOT NULL DEFAULT '/var/lib/pterodactyl/volumes', "daemon_listen" integer NOT NULL DEFAULT '8080', "daemon_sftp" integer NOT NULL DEFAULT '2022', "daemon_auth" character varying(16) NOT NULL DEFAULT 'token', "token_identifier" character varying(16) NOT NULL, "token_secret" text NOT NULL, "location_id" bigint, "last_seen_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_node" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_node_location_id" ON "node" ("location_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_node_token_identifier" ON "node" ("token_identifier") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_node_base_url" ON "node" ("base_url") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_node_uuid" ON "node" ("uuid") `);
        await queryRunner.query(`CREATE TABLE "allocation" ("id" BIGSERIAL NOT NULL, "node_id" bigint NOT NULL, "ip" character varying(45) NOT NULL, "port" integer NOT NULL, "alias" character varying(191), "notes" character varying(191), "server_id" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_allocation" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_allocation_server_id" ON "allocation" ("server_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_allocation_node_ip_port" ON "allocation" ("node_id", "ip", "port") `);
        await queryRunner.query(`ALTER TABLE "node" ADD CONSTRAINT "FK_node_location" FOREIGN KEY ("location_id") REFERENCES "location"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "allocation" ADD CONSTRAINT "FK_allocation_node" FOREIGN KEY ("node_id") REFERENCES "node"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "allocation" ADD CONSTRAINT "FK_allocation_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "allocation" DROP CONSTRAINT "FK_allocation_server"`);
        await queryRunner.query(`ALTER TABLE "allocation" DROP CONSTRAINT "FK_allocation_node"`);
        await queryRunner.query(`ALTER TABLE "node" DROP CONSTRAINT "FK_node_location"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_allocation_node_ip_port"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_allocation_server_id"`);
        await queryRunner.query(`DROP TABLE "allocation"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_node_uuid"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_node_base_url"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_node_token_identifier"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_node_location_id"`);
        await queryRunner.query(`DROP TABLE "node"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_location_short"`);
        await queryRunner.query(`DROP TABLE "location"`);
    }

}
