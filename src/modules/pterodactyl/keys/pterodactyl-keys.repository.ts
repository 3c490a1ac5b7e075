import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PterodactylKeyEntity, PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { UserEntity } from 'src/modules/users/user.entity';

@Injectable()
export class PterodactylKeysRepository {
  constructor(@InjectRepository(PterodactylKeyEntity) private readonly repo: Repository<PterodactylKeyEntity>) {}

  /** The key with its owner, in one query. */
  findByIdentifier(identifier: string): Promise<(PterodactylKeyEntity & { user: UserEntity }) | null> {
    return this.repo
      .createQueryBuilder('k')
      .innerJoinAndSelect('k.user', 'user')
      .where('k.identifier = :identifier', { identifier })
      .getOne() as Promise<(PterodactylKeyEntity & { user: UserEntity }) | null>;
  }

  findForUser(userId: string, keyType: PterodactylKeyType): Promise<PterodactylKeyEntity[]> {
    return this.repo.find({ where: { userId, keyType }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Inserts a key unless its owner already has `max` of its type; null when at the cap. The count
   * and the insert run under the caller's lock on the user row (UsersService.lockForUpdate), so concurrent
   * creations cannot both take the last slot.
   */
  async insertCapped(key: Omit<PterodactylKeyEntity, 'id' | 'user'>, max: number, manager: EntityManager): Promise<PterodactylKeyEntity | null> {
    const keys = manager.getRepository(PterodactylKeyEntity);
    if ((await keys.countBy({ userId: key.userId, keyType: key.keyType })) >= max) {
      return null;
    }
    return keys.save(keys.create(key));
  }

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }

  async deleteForUser(userId: string, keyType: PterodactylKeyType, identifier: string): Promise<boolean> {
    const result = await this.repo.delete({ userId, keyType, identifier });
    return (result.affected ?? 0) > 0;
  }
}
