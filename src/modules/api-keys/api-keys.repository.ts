import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';

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

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }

  /**
   * Inserts a key unless its owner already has `max`; null when at the cap. The caller holds a lock
   * on the user row, so concurrent creations cannot both take the last slot.
   */
  async insertCapped(key: Partial<ApiKeyEntity> & { userId: string }, max: number, manager: EntityManager): Promise<ApiKeyEntity | null> {
    const keys = manager.getRepository(ApiKeyEntity);
    if ((await keys.countBy({ userId: key.userId })) >= max) {
      return null;
    }
    return keys.save(keys.create(key));
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }

  async deleteForUser(userId: string, identifier: string): Promise<boolean> {
    const result = await this.repo.delete({ userId, identifier });
    return (result.affected ?? 0) > 0;
  }
}
