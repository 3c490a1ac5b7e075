import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hand-written, like AddListIndexes: a pg_trgm index behind the node-name branch of the server search
 * (nodeIdsNamed, nodeNameMatches), the one branch AddListIndexes left to a scan. With 1,000 nodes that
 * scan was a third of a millisecond of every search; the index answers a pattern of three characters
 * or more in a few hundredths. Without fastupdate, as the others.
 */
export class AddNodeNameTrigramIndex1795910000000 implements MigrationInterface {
    name = 'AddNodeNameTrigramIndex1795910000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
        await queryRunner.query(`CREATE INDEX "IDX_node_name_trgm" ON "node" USING gin ("name" gin_trgm_ops) WITH (fastupdate = off)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."IDX_node_name_trgm"`);
    }

}
