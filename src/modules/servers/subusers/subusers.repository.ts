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

/** What drops a cached grant: the grant itself, its server, its user. */
const grantTags = (serverId: string, userId: string): string[] => [`grant:${serverId}:${userId}`, `server:${serverId}`, `user:${userId}`];

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
    const tags = grantTags(serverId, userId);
    const read = async () => (await this.repo.findOneBy({ serverId, userId }))?.permissions ?? null;
    return this.caches.grants.getOrLoad(pair, read, () => tags, { cacheNull: true, nullTags: tags });
  }

  /** `grantOf` for one user on many servers: cached grants as they are, the rest in one query (and cached). */
  async grantsOf(serverIds: string[], userId: string): Promise<Map<string, readonly string[] | null>> {
    const grants = new Map<string, readonly string[] | null>();
    const missing: string[] = [];
    for (const serverId of serverIds) {
      const hit = this.caches.grants.get(`${serverId}:${userId}`);
      if (hit === undefined) {
        missing.push(serverId);
      } else {
        grants.set(serverId, hit);
      }
    }
    if (missing.length > 0) {
      const ticket = this.caches.grants.ticket();
      const found = new Map((await this.repo.findBy({ userId, serverId: In(missing) })).map((row) => [row.serverId, row.permissions]));
      for (const serverId of missing) {
        const permissions = found.get(serverId) ?? null;
        this.caches.grants.set(`${serverId}:${userId}`, permissions, grantTags(serverId, userId), ticket);
        grants.set(serverId, permissions);
      }
    }
    return grants;
  }

  listOf(serverId: string): Promise<LoadedSubuser[]> {
    return this.repo.find({ where: { serverId }, relations: { user: true }, order: { id: 'ASC' } }) as Promise<LoadedSubuser[]>;
  }

  findOne(serverId: string, userId: string, manager: EntityManager = this.repo.manager): Promise<LoadedSubuser | null> {
    return manager.getRepository(SubuserEntity).findOne({ where: { serverId, userId }, relations: { user: true } }) as Promise<LoadedSubuser | null>;
  }

  /** The account id of the server's subuser whose account has this uuid (lower case), or null. */
  async findUserIdByUserUuid(serverId: string, userUuid: string): Promise<string | null> {
    const found = await this.repo
      .createQueryBuilder('su')
      .innerJoin('su.user', 'u')
      .select('su.userId', 'userId')
      .where('su.serverId = :serverId AND u.uuid = :userUuid', { serverId, userUuid })
      .getRawOne<{ userId: string | number }>();
    return found ? String(found.userId) : null;
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
}
