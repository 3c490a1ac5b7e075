import { MigrationInterface, QueryRunner } from "typeorm";

export class AlterRecoveryCodeHashToVarchar1795828478256 implements MigrationInterface {
    name = 'AlterRecoveryCodeHashToVarchar1795828478256'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // A recovery code imported from Pterodactyl keeps its bcrypt hash (60 characters), which char(64)
        // would pad. The type is changed in place (TypeORM generates a drop and add, which loses the codes);
        // PostgreSQL rebuilds UQ_user_recovery_code_user_hash with it.
        await queryRunner.query(`ALTER TABLE "user_recovery_code" ALTER COLUMN "code_hash" TYPE character varying(64)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_recovery_code" ALTER COLUMN "code_hash" TYPE character(64)`);
    }

}
