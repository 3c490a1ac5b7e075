import { MigrationInterface, QueryRunner } from "typeorm";

export class AddIntegerIdsToNestsEggsVariables1795559118375 implements MigrationInterface {
    name = 'AddIntegerIdsToNestsEggsVariables1795559118375'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "egg_variable" ADD "int_id" SERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "nest" ADD "int_id" SERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "egg" ADD "int_id" SERIAL NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_egg_variable_int_id" ON "egg_variable" ("int_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_nest_int_id" ON "nest" ("int_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "UQ_egg_int_id" ON "egg" ("int_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."UQ_egg_int_id"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_nest_int_id"`);
        await queryRunner.query(`DROP INDEX "public"."UQ_egg_variable_int_id"`);
        await queryRunner.query(`ALTER TABLE "egg" DROP COLUMN "int_id"`);
        await queryRunner.query(`ALTER TABLE "nest" DROP COLUMN "int_id"`);
        await queryRunner.query(`ALTER TABLE "egg_variable" DROP COLUMN "int_id"`);
    }

}
