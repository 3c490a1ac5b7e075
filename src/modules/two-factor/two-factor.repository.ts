import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { RecoveryCodeEntity } from 'src/modules/two-factor/recovery-code.entity';
import { UserTwoFactorEntity } from 'src/modules/two-factor/user-two-factor.entity';

@Injectable()
export class TwoFactorRepository {
  constructor(
    @InjectRepository(UserTwoFactorEntity) private readonly secrets: Repository<UserTwoFactorEntity>,
    @InjectRepository(RecoveryCodeEntity) private readonly codes: Repository<RecoveryCodeEntity>,
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

  countRecoveryCodes(userId: string): Promise<number> {
    return this.codes.countBy({ userId });
  }

  async removeAll(userId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(RecoveryCodeEntity).delete({ userId });
    await manager.getRepository(UserTwoFactorEntity).delete({ userId });
  }
}
