import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddUserInvitedAndLastSignIn1795784174896 implements MigrationInterface {
  name = 'AddUserInvitedAndLastSignIn1795784174896';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user" ADD "invited_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "user" ADD "last_sign_in_at" TIMESTAMP WITH TIME ZONE`);
    // Accounts still without a password ('!', PasswordHasher.NO_PASSWORD) were made by an invitation
    // and have never signed in; an invited account that chose its password cannot be told apart, so it stays unmarked.
    await queryRunner.query(`UPDATE "user" SET "invited_at" = "created_at" WHERE "password_hash" = '!'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "last_sign_in_at"`);
    await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "invited_at"`);
  }
}
