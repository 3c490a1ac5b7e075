import { MigrationInterface, QueryRunner } from "typeorm";

export class AddDatabaseHosts1795325589072 implements MigrationInterface {
    name = 'AddDatabaseHosts1795325589072'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "database_host" ("id" BIGSERIAL NOT NULL, "name" character varying(191) NOT NULL, "host" character varying(255) NOT NULL, "port" integer NOT NULL DEFAULT '3306', "username" character varying(80) NOT NULL, "password" text NOT NULL, "max_databases" integer, "max_user_connections" integer, "node_id" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_database_host" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_database_host_node_id" ON "database_host" ("node_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_database_host_name" ON "database_host" ("name") `);
        await queryRunner.query(`CREATE TABLE "server_database" ("id" BIGSERIAL NOT NULL, "server_id" bigint NOT NULL, "host_id" bigint NOT NULL, "database" character varying(64) NOT NULL, "username" character varying(32) NOT NULL, "remote" character varying(60) NOT NULL, "max_connections" integer, "status" character varying(16) NOT NULL DEFAULT 'ready', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_server_database" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_server_database_host_id" ON "server_database" ("host_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_server_database_server_database" ON "server_database" ("server_id", "database") `);
        await queryRunner.query(`ALTER TABLE "database_host" ADD CONSTRAINT "FK_database_host_node" FOREIGN KEY ("node_id") REFERENCES "node"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_database" ADD CONSTRAINT "FK_server_database_server" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "server_database" ADD CONSTRAINT "FK_server_database_host" FOREIGN KEY ("host_id") REFERENCES "database_host"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "server_database" DROP CONSTRAINT "FK_server_database_host"`);
        await queryRunner.query(`ALTER TABLE "server_database" DROP CONSTRAINT "FK_server_database_server"`);
        await queryRunner.query(`ALTER TABLE "database_host" DROP CONSTRAINT "FK_database_host_node"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_server_database_server_database"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_server_database_host_id"`);
        await queryRunner.query(`DROP TABLE "server_database"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_database_host_name"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_database_host_node_id"`);
        await queryRunner.query(`DROP TABLE "database_host"`);
    }

}
