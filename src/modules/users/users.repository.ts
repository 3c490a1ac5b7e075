import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { pgError, UNIQUE_VIOLATION, violations } from 'src/database/pg-errors';
import { applyListQuery, containsPattern, ListQuery } from 'src/database/like';
import { Keyset, keysetClause } from 'src/common/http/cursor';
import { pageWithTotal } from 'src/database/page-with-total';

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  findById(id: string, manager: EntityManager = this.repo.manager): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ email: email.toLowerCase() });
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ username: username.toLowerCase() });
  }

  findByUuids(uuids: string[]): Promise<UserEntity[]> {
    return uuids.length === 0 ? Promise.resolve([]) : this.repo.findBy({ uuid: In(uuids) });
  }

  findByExternalId(externalId: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ externalId });
  }

  /**
   * A page by id. With `search`, only users whose username, e-mail or name holds it; `filters` (Pterodactyl's
   * list filters) each match anywhere in their column. Both case-insensitive, with LIKE's wildcards taken literally.
   */
  findPage(skip: number, take: number, search?: string, filters: UserFilters = {}, sort?: ListQuery['sort']): Promise<[UserEntity[], number]> {
    const query = this.repo.createQueryBuilder('u').orderBy('u.id', 'ASC');
    if (search) {
      const pattern = containsPattern(search);
      query.andWhere(
        new Brackets((q) => {
          q.where('u.username ILIKE :pattern', { pattern }).orWhere('u.email ILIKE :pattern', { pattern }).orWhere('u.name ILIKE :pattern', { pattern });
        }),
      );
    }
    const columns = { id: 'u.id', uuid: 'u.uuid::text', email: 'u.email', username: 'u.username', externalId: 'u.externalId' };
    return pageWithTotal(applyListQuery(query, { filters: filters as Record<string, string | undefined>, sort }, columns, 'u.id'), skip, take);
  }

  /** A cursor page (src/common/http/cursor.ts): up to `take` users past `keyset` in id order, with findPage's `search`. */
  findKeysetPage(keyset: Keyset | null, take: number, search?: string): Promise<UserEntity[]> {
    const clause = keysetClause([{ column: 'u.id', cast: 'bigint' }], keyset, 'ASC');
    const query = this.repo.createQueryBuilder('u').orderBy('u.id', clause.order).limit(take);
    if (clause.where) {
      query.andWhere(clause.where, clause.params);
    }
    if (search) {
      const pattern = containsPattern(search);
      query.andWhere(
        new Brackets((q) => {
          q.where('u.username ILIKE :pattern', { pattern }).orWhere('u.email ILIKE :pattern', { pattern }).orWhere('u.name ILIKE :pattern', { pattern });
        }),
      );
    }
    return query.getMany();
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  /** How many users hold each role that anyone holds, by role id. */
  async countByRole(manager: EntityManager = this.repo.manager): Promise<Map<string, number>> {
    const rows = await manager.query<{ id: string; n: string }[]>(`SELECT unnest(admin_role_ids)::text AS id, count(*) AS n FROM "user" GROUP BY 1`);
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  /** Takes the role from everyone holding it; answers their ids. A QueryBuilder update, so that the credential caches drop the users. */
  async removeRole(roleId: string, manager: EntityManager): Promise<string[]> {
    const holders = await manager.getRepository(UserEntity).createQueryBuilder('u').select('u.id', 'id').where(':role = ANY(u.admin_role_ids)', { role: roleId }).getRawMany<{ id: string }>();
    if (holders.length > 0) {
      await manager
        .getRepository(UserEntity)
        .createQueryBuilder()
        .update()
        .set({ adminRoleIds: () => 'array_remove(admin_role_ids, CAST(:role AS bigint))' })
        .where(':role = ANY(admin_role_ids)', { role: roleId })
        .execute();
    }
    return holders.map((h) => String(h.id));
  }

  countAdmins(manager: EntityManager = this.repo.manager): Promise<number> {
    return manager.getRepository(UserEntity).countBy({ admin: true });
  }

  /** Locks every admin row, so two demotions cannot both see "another admin is left". */
  async lockAdmins(manager: EntityManager): Promise<void> {
    await manager.getRepository(UserEntity).createQueryBuilder('u').setLock('pessimistic_write').where('u.admin = true').getMany();
  }

  async insert(user: Partial<UserEntity>, manager: EntityManager = this.repo.manager): Promise<UserEntity> {
    try {
      return await manager.getRepository(UserEntity).save(manager.getRepository(UserEntity).create(user));
    } catch (e) {
      throw mapUniqueViolation(e);
    }
  }

  async update(user: UserEntity, changes: Partial<UserEntity>, manager: EntityManager = this.repo.manager): Promise<UserEntity> {
    try {
      return await manager.getRepository(UserEntity).save({ ...user, ...changes });
    } catch (e) {
      throw mapUniqueViolation(e);
    }
  }

  /** Writes only the given columns, so a concurrent change to another column of the row is not overwritten. */
  async setColumns(
    id: string,
    changes: Partial<Pick<UserEntity, 'passwordHash' | 'twoFactorEnabled' | 'hasPasskey' | 'suspended'>>,
    manager: EntityManager = this.repo.manager,
  ): Promise<void> {
    await manager.getRepository(UserEntity).update({ id }, changes);
  }

  /**
   * Replaces the password hash only while it is still `from`, so that a password changed meanwhile
   * stays; false when it was not. `updated_at` is kept: the account's password did not change.
   */
  async replacePasswordHash(id: string, from: string, to: string): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(UserEntity)
      .set({ passwordHash: to, updatedAt: () => '"updated_at"' })
      .where('id = :id', { id })
      .andWhere('password_hash = :from', { from })
      .execute();
    return result.affected === 1;
  }

  /** Locks the user's row until the transaction ends, so that other modules' per-user limits are checked and used in one step. */
  async lockForUpdate(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(UserEntity).createQueryBuilder('u').setLock('pessimistic_write').where('u.id = :id', { id }).getOne();
  }

  /** Written directly, so that a sign-in does not count as a change of the account (`updated_at`). */
  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.repo.manager.query('UPDATE "user" SET last_sign_in_at = $1 WHERE id = $2', [at, id]);
  }

  /** The foreign key refuses while the user owns servers. */
  async delete(id: string, manager: EntityManager = this.repo.manager): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .delete({ id })
      .catch(violations({ FK_server_owner: UserError.HAS_SERVERS }));
  }

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }
}

/** The columns a user list can be filtered by. */
export interface UserFilters {
  email?: string;
  username?: string;
  uuid?: string;
  externalId?: string;
  name?: string;
}


const mapUniqueViolation = (e: unknown): unknown => {
  const error = pgError(e);
  if (error?.code === UNIQUE_VIOLATION) {
    const { constraint, detail } = error;
    if (constraint === 'UQ_user_email' || detail.startsWith('Key (email)')) {
      return new AppException(UserError.EMAIL_TAKEN);
    }
    if (constraint === 'UQ_user_external_id' || detail.startsWith('Key (external_id)')) {
      return new AppException(UserError.EXTERNAL_ID_TAKEN);
    }
    if (constraint === 'UQ_user_username' || detail.startsWith('Key (username)')) {
      return new AppException(UserError.USERNAME_TAKEN);
    }
  }
  return e;
};
