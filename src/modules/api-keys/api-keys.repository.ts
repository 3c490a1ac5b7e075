import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import { UserEntity } from 'src/modules/users/user.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>) {}

  findByKeyHash(keyHash: string): Promise<ApiKeyEntity | null> {
    // One query: findOne with relations would first select the distinct id, then the row.
    return this.repo.createQueryBuilder('k').innerJoinAndSelect('k.user', 'user').where('k.keyHash = :keyHash', { keyHash }).getOne();
  }

  findForUser(userId: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Inserts a key unless its owner already has `max`; null when at the cap. The count and the
   * insert run under a lock on the user row, so concurrent creations cannot both take the last slot.
   */
  insertCapped(key: Partial<ApiKeyEntity> & { userId: string }, max: number): Promise<ApiKeyEntity | null> {
    return this.repo.manager.transaction(async (manager: EntityManager) => {
      await manager
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .setLock('pessimistic_write')
        .where('u.id = :id', { id: key.userId })
        .getOne();
      const keys = manager.getRepository(ApiKeyEntity);
      if ((await keys.countBy({ userId: key.userId })) >= max) {
        return null;
      }
      return keys.save(keys.create(key));
    });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }

  async deleteForUser(userId: string, identifier: string): Promise<boolean> {
    const result = await this.repo.delete({ userId, identifier });
    return (result.affected ?? 0) > 0;
  }
}
