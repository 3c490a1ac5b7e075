import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CursorPage, CursorPaginated, cursorPaginated } from 'src/common/http/cursor';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AppException } from 'src/common/errors/app.exception';
import { PanelEvents } from 'src/common/events/panel-events';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';
import { UpdateUserDto } from 'src/modules/users/dto/update-user.dto';
import { administers } from 'src/modules/roles/admin-grants';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { AdminUserResponseDto, toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { UserFilters, UsersRepository } from 'src/modules/users/users.repository';
import type { ListQuery } from 'src/database/like';

declare module 'src/common/auth/auth-context' {
  interface AuthContextRows {
    user: UserEntity;
  }
}

/** What only the Pterodactyl application API sets on an account (Hatchery's own DTOs do not take it). */
type PterodactylUserFields = Partial<Pick<UserEntity, 'language'>>;

/** What the audit log records of a user (never the password or its hash). */
const AUDITED = ['username', 'email', 'name', 'admin', 'adminRoleIds', 'suspended'] as const;


@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly lifecycle: UserLifecycle,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditService,
    private readonly events: PanelEvents,
    private readonly roles: AdminRoles,
  ) {}

  async list(page: Page, search?: string): Promise<Paginated<AdminUserResponseDto>> {
    const [rows, total] = await this.users.findPage(page.skip, page.perPage, search?.trim() || undefined);
    return paginated(rows.map(toAdminUserResponse), total, page);
  }

  /** The same list as cursor pages, in id order. */
  async listByCursor(page: CursorPage, search?: string): Promise<CursorPaginated<AdminUserResponseDto>> {
    const rows = await this.users.findKeysetPage(page.keyset, page.perPage + 1, search?.trim() || undefined);
    return cursorPaginated(rows, page, (u) => [u.id], (kept) => kept.map(toAdminUserResponse));
  }

  /** A page of users, filtered (each filter matches case-insensitively anywhere in its column). */
  findPage(page: Page, filters: UserFilters, sort?: ListQuery['sort']): Promise<[UserEntity[], number]> {
    return this.users.findPage(page.skip, page.perPage, undefined, filters, sort);
  }

  async getByExternalId(externalId: string): Promise<UserEntity> {
    const user = await this.users.findByExternalId(externalId);
    if (!user) {
      throw new AppException(UserError.NOT_FOUND);
    }
    return user;
  }

  /** How many accounts exist (none: the first administrator may be created). */
  count(): Promise<number> {
    return this.users.count();
  }

  /** Lookups for other modules: null when there is no such account. */
  findById(id: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.users.findById(id, manager);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(email);
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.users.findByUsername(username);
  }

  /** These users, by uuid (one that does not exist is absent). */
  async findByUuids(uuids: string[]): Promise<Map<string, UserEntity>> {
    return new Map((await this.users.findByUuids(uuids)).map((u): [string, UserEntity] => [u.uuid, u]));
  }

  /**
   * Whether `password` is the account's; false, after the same work, when there is no account. A
   * bcrypt hash carried over from Pterodactyl that matched is replaced by an argon2id hash of the same
   * password, in the row and in `user` (so that a later save of `user` does not write it back).
   * Not a password change: sessions, reset links and two-factor steps stay.
   */
  async verifyPassword(user: UserEntity | null | undefined, password: string): Promise<boolean> {
    const hash = user?.passwordHash;
    if (!(await this.hasher.verify(hash, password)) || !user || hash === undefined) {
      return false;
    }
    if (this.hasher.needsRehash(hash)) {
      const upgraded = await this.hasher.hash(password);
      if (await this.users.replacePasswordHash(user.id, hash, upgraded)) {
        user.passwordHash = upgraded;
      }
    }
    return true;
  }

  /** A self-service sign-up (the caller hashed the password). */
  register(fields: Pick<UserEntity, 'name' | 'username' | 'email' | 'passwordHash'>, manager?: EntityManager): Promise<UserEntity> {
    return this.users.insert({ ...fields, admin: false }, manager);
  }

  /**
   * The user's own new password: every session but `keepSessionId` (every one, without it) ends with
   * the old one. API keys stay. Audited as `user.password_changed`, never with the password.
   */
  async changePassword(user: UserEntity, passwordHash: string, keepSessionId: string | undefined, actor: Actor): Promise<void> {
    await this.users.transaction(async (manager) => {
      await this.users.update(user, { passwordHash }, manager);
      await this.lifecycle.passwordChanged(manager, user.id);
      await this.lifecycle.signInsEnded(manager, user.id, keepSessionId);
      await this.audit.record(manager, actor, { action: 'user.password_changed', targetType: 'user', targetId: user.id });
    });
  }

  /** The user's own new e-mail address; audited as `user.email_changed` when it differs. */
  changeEmail(user: UserEntity, email: string, actor: Actor): Promise<UserEntity> {
    return this.users.transaction(async (manager) => {
      const updated = await this.users.update(user, { email }, manager);
      if (updated.email !== user.email) {
        const changes = { before: { email: user.email }, after: { email: updated.email } };
        await this.audit.record(manager, actor, { action: 'user.email_changed', targetType: 'user', targetId: user.id, changes });
      }
      return updated;
    });
  }

  /**
   * Sets flags without reloading the user; a new password hash also voids the user's reset links and
   * two-factor steps (UserLifecycle.passwordChanged), in the same transaction.
   */
  async setColumns(id: string, changes: Partial<Pick<UserEntity, 'passwordHash' | 'twoFactorEnabled' | 'hasPasskey' | 'suspended'>>, manager?: EntityManager): Promise<void> {
    if (changes.passwordHash === undefined) {
      return this.users.setColumns(id, changes, manager);
    }
    const write = async (m: EntityManager): Promise<void> => {
      await this.users.setColumns(id, changes, m);
      await this.lifecycle.passwordChanged(m, id);
    };
    return manager ? write(manager) : this.users.transaction(write);
  }

  /** Locks the user's row until `manager`'s transaction ends: per-user limits of other modules (sessions, keys) are checked and used in one step. */
  lockForUpdate(id: string, manager: EntityManager): Promise<void> {
    return this.users.lockForUpdate(id, manager);
  }

  /** An account for someone invited by e-mail: nobody can sign in to it until a password is set. */
  createInvited(email: string, username: string, invitedAt: Date, manager: EntityManager): Promise<UserEntity> {
    return this.users.insert({ username, email, name: '', passwordHash: PasswordHasher.NO_PASSWORD, invitedAt }, manager);
  }

  /** Notes a sign-in that opened a session (the administration's "invited, never signed in" reads it). */
  recordSignIn(id: string, at: Date): Promise<void> {
    return this.users.recordSignIn(id, at);
  }

  async get(id: string, manager?: EntityManager): Promise<UserEntity> {
    const user = await this.users.findById(id, manager);
    if (!user) {
      throw new AppException(UserError.NOT_FOUND);
    }
    return user;
  }

  /** An account made by an administrator (audited when `actor` is given), the CLI or ADMIN_EMAIL. */
  async create(dto: CreateUserDto & PterodactylUserFields, actor?: Actor): Promise<UserEntity> {
    if (dto.admin && actor?.fullAdmin === false) {
      throw new AppException(UserError.PRIVILEGED);
    }
    // Without a password the account gets a random one nobody knows: it signs in once a password is set.
    const password = dto.password ?? randomBytes(32).toString('base64url');
    const passwordHash = await this.hasher.hash(password);
    const created = await this.users.transaction(async (manager) => {
      const user = await this.users.insert(
        {
          username: dto.username,
          email: dto.email,
          name: dto.name ?? '',
          admin: dto.admin ?? false,
          externalId: dto.externalId ?? null,
          ...(dto.language !== undefined ? { language: dto.language } : {}),
          passwordHash,
        },
        manager,
      );
      if (actor) {
        await this.audit.record(manager, actor, {
          action: 'user.created',
          targetType: 'user',
          targetId: user.id,
          changes: { after: { ...pick(user, AUDITED), passwordSet: dto.password !== undefined } },
        });
      }
      return user;
    });
    await this.events.publish({
      event: 'user.created',
      data: { userId: created.id, username: created.username, email: created.email, admin: created.admin, externalId: created.externalId },
    });
    return created;
  }

  async update(id: string, dto: UpdateUserDto & PterodactylUserFields, actor: Actor): Promise<UserEntity> {
    const passwordHash = dto.password !== undefined ? await this.hasher.hash(dto.password) : undefined;
    if (actor.fullAdmin === false && (dto.admin !== undefined || dto.roleIds !== undefined)) {
      throw new AppException(UserError.PRIVILEGED);
    }
    return this.users.transaction(async (manager) => {
      const user = await this.get(id, manager);
      this.assertManageable(user, actor);
      if (user.admin && dto.admin === false) {
        await this.ensureAnotherAdmin(manager);
      }
      const { password: _password, roleIds, ...fields } = dto;
      const adminRoleIds = roleIds === undefined ? undefined : await this.existingRoles(roleIds, manager);
      const updated = await this.users.update(user, { ...fields, ...(adminRoleIds ? { adminRoleIds } : {}), ...(passwordHash ? { passwordHash } : {}) }, manager);
      if (passwordHash) {
        await this.lifecycle.passwordChanged(manager, user.id);
        // A password set by an administrator ends every session the old one opened.
        await this.lifecycle.signInsEnded(manager, user.id);
      }
      const changes = changedFields(user, updated, AUDITED);
      if (passwordHash) {
        changes.after.passwordChanged = true;
      }
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'user.updated', targetType: 'user', targetId: user.id, changes });
      }
      return updated;
    });
  }

  /**
   * Suspends or restores sign-in. Suspending ends every session at once; API keys and SFTP are
   * refused while the flag is set (AuthService, SftpAuthService), and work again once it is lifted.
   */
  async setSuspended(id: string, suspended: boolean, actor: Actor): Promise<UserEntity> {
    if (suspended && actor.userId === id) {
      throw new AppException(UserError.CANNOT_SUSPEND_SELF);
    }
    return this.users.transaction(async (manager) => {
      const user = await this.get(id, manager);
      this.assertManageable(user, actor);
      if (user.suspended === suspended) {
        return user;
      }
      await this.users.setColumns(user.id, { suspended }, manager);
      if (suspended) {
        await this.lifecycle.signInsEnded(manager, user.id);
      }
      await this.audit.record(manager, actor, {
        action: suspended ? 'user.suspended' : 'user.unsuspended',
        targetType: 'user',
        targetId: user.id,
        changes: { before: { suspended: user.suspended }, after: { suspended } },
      });
      return this.get(user.id, manager);
    });
  }

  async delete(id: string, actor: Actor): Promise<void> {
    if (actor.userId === id) {
      throw new AppException(UserError.CANNOT_DELETE_SELF);
    }
    await this.users.transaction(async (manager) => {
      const user = await this.get(id, manager);
      this.assertManageable(user, actor);
      if (user.admin) {
        await this.ensureAnotherAdmin(manager);
      }
      await this.users.delete(user.id, manager);
      await this.audit.record(manager, actor, { action: 'user.deleted', targetType: 'user', targetId: user.id, changes: { before: pick(user, AUDITED) } });
    });
  }

  countByRole(): Promise<Map<string, number>> {
    return this.users.countByRole();
  }

  /** Takes a role being deleted from everyone holding it (in the deletion's transaction); answers their ids. */
  removeRole(roleId: string, manager: EntityManager): Promise<string[]> {
    return this.users.removeRole(roleId, manager);
  }

  /**
   * An administrator through roles only may manage accounts that administer nothing: a full
   * administrator or a role holder could otherwise be taken over (e-mail, password, a password link,
   * two-factor reset) by someone holding less.
   */
  assertManageable(user: UserEntity, actor: Actor): void {
    if (actor.fullAdmin === false && administers(user)) {
      throw new AppException(UserError.PRIVILEGED);
    }
  }

  /** The ids, each an existing role (locked against deletion until the transaction ends), without repeats. */
  private async existingRoles(ids: readonly string[], manager: EntityManager): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = await this.roles.lockExisting(unique, manager);
    const missing = unique.find((id) => !found.includes(id));
    if (missing !== undefined) {
      throw new AppException(UserError.ROLE_NOT_FOUND, { message: `No administrator role has the id ${missing}`, details: [{ field: 'roleIds', message: `unknown role ${missing}` }] });
    }
    return unique.sort((a, b) => Number(a) - Number(b));
  }

  private async ensureAnotherAdmin(manager: EntityManager): Promise<void> {
    await this.users.lockAdmins(manager);
    if ((await this.users.countAdmins(manager)) <= 1) {
      throw new AppException(UserError.LAST_ADMIN);
    }
  }
}
