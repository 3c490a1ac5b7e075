import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import { isUniqueViolation } from 'src/database/pg-errors';

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    /** The permissions granted to a user on a server, or null for no grant. */
    grants: readonly string[] | null;
  }
}

export type LoadedSubuser = SubuserEntity & Required<Pick<SubuserEntity, 'user'>>;

@Injectable()
export class SubusersRepository {
  constructor(
    @InjectRepository(SubuserEntity) private readonly repo: Repository<SubuserEntity>,
    private readonly caches: HotCaches,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }

  /**
   * The permissions the user was granted on the server, or null when it is no subuser there
   * (ServerContextResolver runs this on every client request). Served from HotCaches when warm,
   * "none" included; any change to the server's subusers drops it.
   */
  grantOf(serverId: string, userId: string): Promise<readonly string[] | null> {
    const pair = `${serverId}:${userId}`;
    const tags = [`grant:${pair}`, `server:${serverId}`, `user:${userId}`];
    const read = async () => (await this.repo.findOneBy({ serverId, userId }))?.permissions ?? null;
    return this.caches.grants.getOrLoad(pair, read, () => tags, { cacheNull: true, nullTags: tags });
  }

  listOf(serverId: string): Promise<LoadedSubuser[]> {
    return this.repo.find({ where: { serverId }, relations: { user: true }, order: { id: 'ASC' } }) as Promise<LoadedSubuser[]>;
  }

  findOne(serverId: string, userId: string, manager: EntityManager = this.repo.manager): Promise<LoadedSubuser | null> {
    return manager.getRepository(SubuserEntity).findOne({ where: { serverId, userId }, relations: { user: true } }) as Promise<LoadedSubuser | null>;
  }

  /** Inserts the entry; `null` when the user already is a subuser of the server (unique violation). */
  async insert(entry: Pick<SubuserEntity, 'serverId' | 'userId' | 'permissions'>, manager: EntityManager): Promise<SubuserEntity | null> {
    const repo = manager.getRepository(SubuserEntity);
    try {
      return await repo.save(repo.create(entry));
    } catch (e) {
      if (isUniqueViolation(e)) {
        return null;
      }
      throw e;
    }
  }

  async setPermissions(id: string, permissions: string[], manager: EntityManager): Promise<void> {
    await manager.getRepository(SubuserEntity).update({ id }, { permissions });
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(SubuserEntity).delete({ id });
  }

  /** Servers shared with a user, a page at a time, with the grants that go with them. */
  async serverIdsFor(userId: string, skip: number, take: number): Promise<[SubuserEntity[], number]> {
    return this.repo.findAndCount({ where: { userId }, order: { serverId: 'ASC' }, skip, take });
  }

  /** A user's entries on the given servers (the shared rows of a list page). */
  grantsOn(userId: string, serverIds: string[]): Promise<SubuserEntity[]> {
    return serverIds.length === 0 ? Promise.resolve([]) : this.repo.findBy({ userId, serverId: In(serverIds) });
  }
}
