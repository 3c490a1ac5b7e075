import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PasswordResetTokenEntity } from 'src/modules/password-reset/password-reset-token.entity';

@Injectable()
export class PasswordResetRepository {
  constructor(@InjectRepository(PasswordResetTokenEntity) private readonly repo: Repository<PasswordResetTokenEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }

  findByHash(tokenHash: string): Promise<PasswordResetTokenEntity | null> {
    return this.repo.findOneBy({ tokenHash });
  }

  /**
   * Issues a token as the user's only one: earlier tokens of the user, and everyone's expired ones, are deleted.
   * With `manager`, inside the caller's transaction (an invitation's token lives or dies with its account).
   */
  replaceForUser(token: Pick<PasswordResetTokenEntity, 'userId' | 'tokenHash' | 'createdAt' | 'expiresAt'>, outer?: EntityManager): Promise<void> {
    const replace = async (manager: EntityManager): Promise<void> => {
      await manager
        .getRepository(PasswordResetTokenEntity)
        .createQueryBuilder()
        .delete()
        .where('user_id = :userId OR expires_at <= :now', { userId: token.userId, now: token.createdAt })
        .execute();
      await manager.getRepository(PasswordResetTokenEntity).insert(token);
    };
    return outer ? replace(outer) : this.repo.manager.transaction(replace);
  }

  /** Voids every link mailed to the user (their password changed). */
  async deleteForUser(userId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(PasswordResetTokenEntity).delete({ userId });
  }

  /** Deletes the token; false when it was gone already (used by a concurrent request). */
  async consume(id: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.getRepository(PasswordResetTokenEntity).delete({ id });
    return result.affected === 1;
  }
}
