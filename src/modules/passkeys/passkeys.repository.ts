import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { returnedRows } from 'src/database/returned-rows';
import { PasskeyCeremony, PasskeyChallengeEntity } from 'src/modules/passkeys/passkey-challenge.entity';
import { PasskeyEntity } from 'src/modules/passkeys/passkey.entity';

@Injectable()
export class PasskeysRepository {
  constructor(
    @InjectRepository(PasskeyEntity) private readonly passkeys: Repository<PasskeyEntity>,
    @InjectRepository(PasskeyChallengeEntity) private readonly challenges: Repository<PasskeyChallengeEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.passkeys.manager.transaction(fn);
  }

  listOf(userId: string): Promise<PasskeyEntity[]> {
    return this.passkeys.find({ where: { userId }, order: { id: 'ASC' } });
  }

  countOf(userId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(PasskeyEntity).countBy({ userId });
  }

  /** Whether the user has a passkey, as `manager`'s transaction sees it now. */
  existsFor(userId: string, manager: EntityManager): Promise<boolean> {
    return manager.getRepository(PasskeyEntity).existsBy({ userId });
  }

  findOne(userId: string, id: string): Promise<PasskeyEntity | null> {
    return this.passkeys.findOneBy({ userId, id });
  }

  findByCredentialId(credentialId: string, manager: EntityManager = this.passkeys.manager): Promise<PasskeyEntity | null> {
    return manager.getRepository(PasskeyEntity).findOneBy({ credentialId });
  }

  async insert(passkey: Omit<PasskeyEntity, 'id' | 'user' | 'lastUsedAt'>, manager: EntityManager): Promise<PasskeyEntity> {
    const repo = manager.getRepository(PasskeyEntity);
    return repo.save(repo.create({ ...passkey, lastUsedAt: null }));
  }

  async rename(id: string, name: string): Promise<void> {
    await this.passkeys.update({ id }, { name });
  }

  /** False when it was gone already. */
  async delete(userId: string, id: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.getRepository(PasskeyEntity).delete({ userId, id });
    return result.affected === 1;
  }

  /** Deletes all the user's passkeys; how many there were. */
  async deleteAllOf(userId: string, manager: EntityManager): Promise<number> {
    const result = await manager.getRepository(PasskeyEntity).delete({ userId });
    await manager.getRepository(PasskeyChallengeEntity).delete({ userId });
    return result.affected ?? 0;
  }

  /**
   * Records a use: the new counter, only while the stored one is still `fromCounter` (a concurrent
   * use of the same credential moved it: false, and the caller refuses this one).
   */
  async recordUse(id: string, fromCounter: string, counter: number, backedUp: boolean, at: Date): Promise<boolean> {
    const result = await this.passkeys
      .createQueryBuilder()
      .update(PasskeyEntity)
      .set({ counter: String(counter), backedUp, lastUsedAt: at })
      .where('id = :id', { id })
      .andWhere('counter = :fromCounter', { fromCounter })
      .execute();
    return result.affected === 1;
  }

  /** Stores a new challenge; everyone's expired challenges go with it, so the table holds only live ones. */
  async insertChallenge(challenge: Pick<PasskeyChallengeEntity, 'challengeHash' | 'ceremony' | 'userId' | 'createdAt' | 'expiresAt'>): Promise<void> {
    await this.challenges.delete({ expiresAt: LessThanOrEqual(challenge.createdAt) });
    await this.challenges.insert(challenge);
  }

  /**
   * Deletes the live challenge of this hash and ceremony, so that it works once: the user it was
   * issued to (null when it names none), or undefined when there is no such live challenge.
   */
  async takeChallenge(challengeHash: string, ceremony: PasskeyCeremony, now: Date): Promise<{ userId: string | null } | undefined> {
    const result = await this.challenges
      .createQueryBuilder()
      .delete()
      .from(PasskeyChallengeEntity)
      .where('challenge_hash = :challengeHash', { challengeHash })
      .andWhere('ceremony = :ceremony', { ceremony })
      .andWhere('expires_at > :now', { now })
      .returning('"user_id"')
      .execute();
    const row = returnedRows<{ user_id: string | number | null }>(result.raw)[0];
    return row ? { userId: row.user_id === null ? null : String(row.user_id) } : undefined;
  }
}
