import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, LessThanOrEqual, Like, Repository } from 'typeorm';
import { returnedRows } from 'src/database/returned-rows';
import { RecoveryCodeEntity } from 'src/modules/two-factor/recovery-code.entity';
import { TwoFactorChallengeEntity } from 'src/modules/two-factor/two-factor-challenge.entity';
import { UserTwoFactorEntity } from 'src/modules/two-factor/user-two-factor.entity';

@Injectable()
export class TwoFactorRepository {
  constructor(
    @InjectRepository(UserTwoFactorEntity) private readonly secrets: Repository<UserTwoFactorEntity>,
    @InjectRepository(RecoveryCodeEntity) private readonly codes: Repository<RecoveryCodeEntity>,
    @InjectRepository(TwoFactorChallengeEntity) private readonly challenges: Repository<TwoFactorChallengeEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.secrets.manager.transaction(fn);
  }

  find(userId: string): Promise<UserTwoFactorEntity | null> {
    return this.secrets.findOneBy({ userId });
  }

  /** Stores a new pending secret, replacing any earlier pending one. */
  async savePending(userId: string, secretSealed: string, now: Date): Promise<void> {
    await this.secrets.upsert({ userId, secretSealed, confirmedAt: null, lastUsedStep: null, createdAt: now }, ['userId']);
  }

  /** Confirms the pending secret if it is still the one the code was checked against; false when it changed or was confirmed already. */
  async confirm(userId: string, secretSealed: string, step: number, now: Date, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .getRepository(UserTwoFactorEntity)
      .update({ userId, secretSealed, confirmedAt: IsNull() }, { confirmedAt: now, lastUsedStep: String(step) });
    return result.affected === 1;
  }

  /** Records `step` as used; false when it, or a later step, was used already (a replayed code). */
  async useStep(userId: string, step: number): Promise<boolean> {
    const result = await this.secrets
      .createQueryBuilder()
      .update(UserTwoFactorEntity)
      .set({ lastUsedStep: String(step) })
      .where('user_id = :userId', { userId })
      .andWhere('confirmed_at IS NOT NULL')
      .andWhere('(last_used_step IS NULL OR last_used_step < :step)', { step })
      .execute();
    return result.affected === 1;
  }

  async replaceRecoveryCodes(userId: string, hashes: string[], now: Date, manager: EntityManager): Promise<void> {
    const codes = manager.getRepository(RecoveryCodeEntity);
    await codes.delete({ userId });
    await codes.insert(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
  }

  /** Deletes the code, so it works once; false when the user has no such unused code. */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const result = await this.codes.delete({ userId, codeHash });
    return result.affected === 1;
  }

  /** The hashes of the user's first `limit` unused codes that start with `prefix` (the bcrypt hashes of codes imported from Pterodactyl). */
  async findRecoveryCodeHashes(userId: string, prefix: string, limit: number): Promise<string[]> {
    const rows = await this.codes.find({
      select: { id: true, codeHash: true },
      where: { userId, codeHash: Like(`${prefix}%`) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.codeHash);
  }

  countRecoveryCodes(userId: string): Promise<number> {
    return this.codes.countBy({ userId });
  }

  async removeAll(userId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(RecoveryCodeEntity).delete({ userId });
    await manager.getRepository(TwoFactorChallengeEntity).delete({ userId });
    await manager.getRepository(UserTwoFactorEntity).delete({ userId });
  }

  /** Ends the user's pending sign-in steps (their password changed: the steps the old one opened are void). */
  async deleteChallengesOf(userId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(TwoFactorChallengeEntity).delete({ userId });
  }

  /** Stores a new challenge; everyone's expired challenges go with it, so the table holds only live ones. */
  async insertChallenge(challenge: Pick<TwoFactorChallengeEntity, 'userId' | 'tokenHash' | 'createdAt' | 'expiresAt'>): Promise<void> {
    await this.challenges.delete({ expiresAt: LessThanOrEqual(challenge.createdAt) });
    await this.challenges.insert(challenge);
  }

  /**
   * Counts one attempt on a live challenge with attempts left, in one statement so that concurrent
   * guesses cannot share an attempt; the challenge as it is after the count, or null when it is
   * unknown, expired or out of attempts.
   */
  async claimAttempt(tokenHash: string, maxAttempts: number, now: Date): Promise<{ id: string; userId: string; attempts: number } | null> {
    const result = await this.challenges
      .createQueryBuilder()
      .update(TwoFactorChallengeEntity)
      .set({ attempts: () => 'attempts + 1' })
      .where('token_hash = :tokenHash', { tokenHash })
      .andWhere('expires_at > :now', { now })
      .andWhere('attempts < :maxAttempts', { maxAttempts })
      .returning('"id", "user_id", "attempts"')
      .execute();
    const row = returnedRows<{ id: string | number; user_id: string | number; attempts: number }>(result.raw)[0];
    return row ? { id: String(row.id), userId: String(row.user_id), attempts: row.attempts } : null;
  }

  /** The user of a live challenge with attempts left, without counting an attempt; null when there is none. */
  async findLiveChallenge(tokenHash: string, maxAttempts: number, now: Date): Promise<{ userId: string } | null> {
    const row = await this.challenges
      .createQueryBuilder('c')
      .select(['c.userId'])
      .where('c.token_hash = :tokenHash', { tokenHash })
      .andWhere('c.expires_at > :now', { now })
      .andWhere('c.attempts < :maxAttempts', { maxAttempts })
      .getOne();
    return row ? { userId: row.userId } : null;
  }

  /** Deletes the challenge; false when it was gone already (a concurrent request used it). */
  async deleteChallenge(id: string): Promise<boolean> {
    const result = await this.challenges.delete({ id });
    return result.affected === 1;
  }
}
