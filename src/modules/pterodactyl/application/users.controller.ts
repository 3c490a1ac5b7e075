import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
} from "@nestjs/common";
import { PartialType } from "@nestjs/swagger";
import { IsString, MaxLength, MinLength } from "class-validator";
import { AppConfigService } from "src/config/app-config.service";
import { HttpRequest } from "src/common/http/http";
import { DecimalIdPipe } from "src/common/validation/decimal-id.pipe";
import { Optional } from "src/common/validation/decorators";
import {
  IsAccountEmail,
  IsPassword,
  IsUsername,
} from "src/modules/users/dto/user-fields";
import { toAdminUserResponse } from "src/modules/users/dto/user-response.dto";
import { UserEntity } from "src/modules/users/user.entity";
import { UsersService } from "src/modules/users/users.service";
import type { Actor } from "src/common/auth/current-actor.decorator";
import {
  applicationPaths,
  ApplicationRoute,
  PterodactylActor,
  PterodactylCaller,
  PterodactylController,
  PterodactylRequestOf,
} from "src/modules/pterodactyl/common/pterodactyl-route";
import { ApplicationServerViews } from "src/modules/pterodactyl/application/server-views";
import { keyAllows, ResolvedPterodactylKey } from "src/modules/pterodactyl/keys/pterodactyl-keys.service";
import { AdminServersService } from "src/modules/servers/admin-servers.service";
import {
  PterodactylBody,
  uniqueViolation,
} from "src/modules/pterodactyl/common/pterodactyl-body";
import { PterodactylError } from "src/modules/pterodactyl/common/pterodactyl-errors";
import { filtersOf, FractalItem, FractalPage, includesOf, list, NULL_RESOURCE, page, pageOf, sortOf, withRelationships } from "src/modules/pterodactyl/common/fractal";
import { LaravelBoolean } from "src/modules/pterodactyl/common/laravel-rules";
import { translating } from "src/modules/pterodactyl/common/translate";
import {
  splitName,
  userItem,
} from "src/modules/pterodactyl/application/transformers";

const userId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

/** Pterodactyl's user body (StoreUserRequest). */
class StoreUserBody {
  @IsAccountEmail()
  email!: string;

  @IsUsername()
  username!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(191)
  first_name!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(191)
  last_name!: string;

  /** Hatchery's rule (8 to 256 characters) where Pterodactyl has none; null or absent: no password is set. */
  @Optional({ nullable: true })
  @IsPassword()
  password?: string | null;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  external_id?: string | null;

  /** Read and ignored: Hatchery has one language. */
  @Optional()
  @IsString()
  language?: string;

  @Optional()
  @LaravelBoolean()
  root_admin?: boolean;
}

/** On update every field is optional (Pterodactyl asks for them all again; clients that send them all still work). */
class UpdateUserBody extends PartialType(StoreUserBody, {
  skipNullProperties: false,
}) {}

const FILTERS = ["email", "uuid", "username", "external_id"] as const;

const UNIQUE = {
  USER_EMAIL_TAKEN: () => uniqueViolation("email"),
  USER_USERNAME_TAKEN: () => uniqueViolation("username"),
  USER_EXTERNAL_ID_TAKEN: () => uniqueViolation("external_id"),
};

const nameOf = (first: string, last: string): string =>
  `${first.trim()} ${last.trim()}`.trim().slice(0, 255);

const USER_INCLUDES = ["servers"] as const;

const view = (user: UserEntity): FractalItem =>
  userItem(toAdminUserResponse(user));

/** Pterodactyl's application users (routes/api-application.php, /users). */
@PterodactylController()
@Controller(applicationPaths("users"))
export class ApplicationUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly config: AppConfigService,
    private readonly servers: AdminServersService,
    private readonly serverViews: ApplicationServerViews,
  ) {}

  @Get()
  @ApplicationRoute("users", "read")
  async list(
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylRequestOf() req: HttpRequest,
  ): Promise<FractalPage> {
    const at = pageOf(query);
    const { external_id: externalId, ...filters } = filtersOf(query, FILTERS);
    const [rows, total] = await this.users.findPage(
      at,
      {
        ...filters,
        externalId,
      },
      sortOf(query, ["id", "uuid"] as const),
    );
    const includes = includesOf(query, USER_INCLUDES);
    return page(await Promise.all(rows.map((u) => this.withIncludes(u, includes, key))), total, at, req, this.config.http.appUrl);
  }

  @Get("external/:externalId")
  @ApplicationRoute("users", "read")
  async external(
    @Param("externalId") externalId: string,
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.withIncludes(await this.users.getByExternalId(externalId), includesOf(query, USER_INCLUDES), key);
  }

  @Get(":id")
  @ApplicationRoute("users", "read")
  async view(
    @Param("id", userId) id: string,
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.withIncludes(await this.users.get(id), includesOf(query, USER_INCLUDES), key);
  }

  /** UserTransformer's `servers` include: every server the user owns (read on servers needed, else a null resource). */
  private async withIncludes(user: UserEntity, includes: Set<(typeof USER_INCLUDES)[number]>, key: ResolvedPterodactylKey): Promise<FractalItem> {
    if (!includes.has("servers")) {
      return view(user);
    }
    if (!keyAllows(key.permissions, "servers", "read")) {
      return withRelationships(view(user), { servers: NULL_RESOURCE });
    }
    const { data } = await this.servers.list({ page: 1, perPage: 1_000, skip: 0 }, undefined, { ownerId: user.id });
    return withRelationships(view(user), { servers: list(await this.serverViews.views(data)) });
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute("users", "write")
  async create(
    @PterodactylBody(StoreUserBody) body: StoreUserBody,
    @PterodactylActor() actor: Actor,
  ): Promise<FractalItem & { meta: { resource: string } }> {
    const user = await translating(
      this.users.create(
        {
          email: body.email,
          username: body.username,
          name: nameOf(body.first_name, body.last_name),
          password: body.password ?? undefined,
          admin: body.root_admin ?? false,
          externalId: body.external_id ?? null,
        },
        actor,
      ),
      UNIQUE,
    );
    return {
      ...view(user),
      meta: {
        resource: new URL(
          `/api/application/users/${user.id}`,
          this.config.http.appUrl,
        ).toString(),
      },
    };
  }

  @Patch(":id")
  @ApplicationRoute("users", "write")
  async update(
    @Param("id", userId) id: string,
    @PterodactylBody(UpdateUserBody) body: UpdateUserBody,
    @PterodactylActor() actor: Actor,
  ): Promise<FractalItem> {
    const current = await this.users.get(id);
    const { first, last } = splitName(current.name);
    const names =
      body.first_name !== undefined || body.last_name !== undefined
        ? { name: nameOf(body.first_name ?? first, body.last_name ?? last) }
        : {};
    const user = await translating(
      this.users.update(
        id,
        {
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.username !== undefined ? { username: body.username } : {}),
          ...names,
          ...(typeof body.password === "string"
            ? { password: body.password }
            : {}),
          ...(body.root_admin !== undefined ? { admin: body.root_admin } : {}),
          ...(body.external_id !== undefined
            ? { externalId: body.external_id }
            : {}),
        },
        actor,
      ),
      UNIQUE,
    );
    return view(user);
  }

  @Delete(":id")
  @HttpCode(204)
  @ApplicationRoute("users", "write")
  async delete(
    @Param("id", userId) id: string,
    @PterodactylActor() actor: Actor,
  ): Promise<void> {
    await this.users.delete(id, actor);
  }
}
