import { Injectable } from '@nestjs/common';
import { scopeOf } from 'src/common/auth/admin-scope';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { StoreUserBody, UpdateUserBody } from 'src/modules/pterodactyl/application/dto/user.dto';
import { ApplicationServerViews } from 'src/modules/pterodactyl/application/server-views';
import { splitName, userItem } from 'src/modules/pterodactyl/application/transformers';
import { FractalItem, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { uniqueViolation } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

/** UserTransformer's includes. */
export const USER_INCLUDES = ['servers'] as const;

const UNIQUE = {
  USER_EMAIL_TAKEN: () => uniqueViolation('email'),
  USER_USERNAME_TAKEN: () => uniqueViolation('username'),
  USER_EXTERNAL_ID_TAKEN: () => uniqueViolation('external_id'),
};

/** Pterodactyl's first and last names as Hatchery's one name. */
const nameOf = (first: string, last: string): string => `${first.trim()} ${last.trim()}`.trim().slice(0, 255);

export const userView = (user: UserEntity): FractalItem => userItem(toAdminUserResponse(user));

/** The application API's users: their views with the `servers` include, and the writes in Hatchery's terms. */
@Injectable()
export class ApplicationUsersService {
  constructor(
    private readonly users: UsersService,
    private readonly servers: AdminServersService,
    private readonly serverViews: ApplicationServerViews,
    private readonly roles: AdminRoles,
  ) {}

  /**
   * UserTransformer's `servers` include: the servers the user owns, as far as the key reaches. Read on
   * servers is needed of the key and of its owner (a role holder's roles must grant it; limited to some
   * nodes, only those nodes' servers are shown), else a null resource.
   */
  async view(user: UserEntity, includes: Set<(typeof USER_INCLUDES)[number]>, key: ResolvedPterodactylKey): Promise<FractalItem> {
    if (!includes.has('servers')) {
      return userView(user);
    }
    const nodes = this.roles.grantsOfUser(key.user).scopes.get(scopeOf('servers', 'read'));
    if (!keyAllows(key.permissions, 'servers', 'read') || nodes === undefined) {
      return withRelationships(userView(user), { servers: NULL_RESOURCE });
    }
    const { data } = await this.servers.list({ page: 1, perPage: 1_000, skip: 0 }, undefined, { ownerId: user.id, ...(nodes === null ? {} : { nodeIds: [...nodes] }) });
    return withRelationships(userView(user), { servers: list(await this.serverViews.views(data)) });
  }

  create(body: StoreUserBody, actor: Actor): Promise<UserEntity> {
    return translating(
      this.users.create(
        {
          email: body.email,
          username: body.username,
          name: nameOf(body.first_name, body.last_name),
          password: body.password ?? undefined,
          admin: body.root_admin ?? false,
          externalId: body.external_id ?? null,
          language: body.language,
        },
        actor,
      ),
      UNIQUE,
    );
  }

  /** Only what was given changes; a first or last name alone keeps the other part of the current name. */
  async update(id: string, body: UpdateUserBody, actor: Actor): Promise<UserEntity> {
    const current = await this.users.get(id);
    const { first, last } = splitName(current.name);
    const names = body.first_name !== undefined || body.last_name !== undefined ? { name: nameOf(body.first_name ?? first, body.last_name ?? last) } : {};
    return translating(
      this.users.update(
        id,
        {
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.username !== undefined ? { username: body.username } : {}),
          ...names,
          ...(typeof body.password === 'string' ? { password: body.password } : {}),
          ...(body.root_admin !== undefined ? { admin: body.root_admin } : {}),
          ...(body.external_id !== undefined ? { externalId: body.external_id } : {}),
          ...(body.language !== undefined ? { language: body.language } : {}),
        },
        actor,
      ),
      UNIQUE,
    );
  }
}
