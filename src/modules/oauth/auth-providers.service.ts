import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { changedFields, pick } from 'src/modules/audit/audit.service';
import { AuditService } from 'src/modules/audit/audit.service';
import { AuthProviderEntity } from 'src/modules/oauth/auth-provider.entity';
import { AuthProviderDto, CreateAuthProviderDto, PublicAuthProviderDto, toAuthProviderResponse, toPublicAuthProvider, UpdateAuthProviderDto } from 'src/modules/oauth/dto/auth-provider.dto';
import { OAuthClient } from 'src/modules/oauth/oauth-client';
import { OAuthError } from 'src/modules/oauth/oauth.errors';
import { OAuthRepository } from 'src/modules/oauth/oauth.repository';
import { OIDC_DEFAULT_SCOPES, PRESETS } from 'src/modules/oauth/provider-presets';

/** What the audit log records of a provider: never its secret. */
const AUDITED = ['name', 'type', 'issuer', 'clientId', 'scopes', 'enabled', 'showOnSignIn', 'allowRegistration', 'allowedDomains'] as const satisfies readonly (keyof AuthProviderEntity)[];

const secretContext = (id: string): string => `auth_provider:${id}:client_secret`;

/** Administrators' sign-in providers (`/api/admin/auth-providers`). */
@Injectable()
export class AuthProvidersService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly box: SecretBox,
    private readonly client: OAuthClient,
    private readonly audit: AuditService,
    private readonly config: AppConfigService,
  ) {}

  redirectUri(id: string): string {
    return `${this.config.http.appUrl.replace(/\/+$/, '')}/api/auth/oauth/${id}/callback`;
  }

  private respond(p: AuthProviderEntity): AuthProviderDto {
    return toAuthProviderResponse(p, this.redirectUri(p.id));
  }

  async list(): Promise<AuthProviderDto[]> {
    return (await this.repo.listProviders()).map((p) => this.respond(p));
  }

  /** Enabled providers the sign-in page shows (`signIn`), or every enabled one (the account page's links). */
  async listPublic(signIn: boolean): Promise<PublicAuthProviderDto[]> {
    return (await this.repo.listProviders()).filter((p) => p.enabled && (!signIn || p.showOnSignIn)).map(toPublicAuthProvider);
  }

  async get(id: string): Promise<AuthProviderDto> {
    return this.respond(await this.require(id));
  }

  async require(id: string): Promise<AuthProviderEntity> {
    const provider = await this.repo.findProvider(id);
    if (!provider) {
      throw new AppException(OAuthError.PROVIDER_NOT_FOUND);
    }
    return provider;
  }

  clientSecretOf(provider: AuthProviderEntity): string {
    return this.box.open(provider.clientSecret, secretContext(provider.id));
  }

  /** A preset's issuer, or an OpenID Connect issuer that discovery accepts (with these credentials). */
  private async issuerFor(type: AuthProviderEntity['type'], issuer: string | undefined, clientId: string, clientSecret: string): Promise<string> {
    if (type !== 'oidc') {
      return PRESETS[type].issuer;
    }
    if (!issuer) {
      throw new AppException(OAuthError.ISSUER_REQUIRED);
    }
    await this.client.discover(issuer, clientId, clientSecret);
    return issuer;
  }

  async create(dto: CreateAuthProviderDto, actor: Actor): Promise<AuthProviderDto> {
    const issuer = await this.issuerFor(dto.type, dto.issuer, dto.clientId, dto.clientSecret);
    const saved = await this.repo.transaction(async (m) => {
      const row = await this.repo.saveProvider(
        {
          name: dto.name,
          type: dto.type,
          issuer,
          clientId: dto.clientId,
          clientSecret: '',
          scopes: dto.scopes ?? (dto.type === 'oidc' ? OIDC_DEFAULT_SCOPES : PRESETS[dto.type].scopes),
          enabled: dto.enabled ?? true,
          showOnSignIn: dto.showOnSignIn ?? true,
          allowRegistration: dto.allowRegistration ?? false,
          allowedDomains: dto.allowedDomains ?? [],
        },
        m,
      );
      // Sealed under its own id, so the row must exist first.
      row.clientSecret = this.box.seal(dto.clientSecret, secretContext(row.id));
      await this.repo.saveProvider(row, m);
      await this.audit.record(m, actor, { action: 'auth_provider.created', targetType: 'auth_provider', targetId: row.id, changes: { after: pick(row, AUDITED) } });
      return row;
    });
    return this.respond(saved);
  }

  async update(id: string, dto: UpdateAuthProviderDto, actor: Actor): Promise<AuthProviderDto> {
    const before = await this.require(id);
    const clientId = dto.clientId ?? before.clientId;
    const clientSecret = dto.clientSecret ?? this.clientSecretOf(before);
    const issuer = before.type === 'oidc' && (dto.issuer !== undefined || dto.clientId !== undefined || dto.clientSecret !== undefined)
      ? await this.issuerFor('oidc', dto.issuer ?? before.issuer, clientId, clientSecret)
      : before.issuer;
    const saved = await this.repo.transaction(async (m) => {
      const current = await this.repo.findProvider(id, m);
      if (!current) {
        throw new AppException(OAuthError.PROVIDER_NOT_FOUND);
      }
      const next: AuthProviderEntity = {
        ...current,
        name: dto.name ?? current.name,
        issuer,
        clientId,
        clientSecret: dto.clientSecret !== undefined ? this.box.seal(dto.clientSecret, secretContext(id)) : current.clientSecret,
        scopes: dto.scopes ?? current.scopes,
        enabled: dto.enabled ?? current.enabled,
        showOnSignIn: dto.showOnSignIn ?? current.showOnSignIn,
        allowRegistration: dto.allowRegistration ?? current.allowRegistration,
        allowedDomains: dto.allowedDomains ?? current.allowedDomains,
      };
      const row = await this.repo.saveProvider(next, m);
      const changes = changedFields(current, row, AUDITED);
      // A new secret is recorded as having changed, never with its value.
      if (dto.clientSecret !== undefined) {
        changes.after.clientSecret = 'changed';
      }
      await this.audit.record(m, actor, { action: 'auth_provider.updated', targetType: 'auth_provider', targetId: id, changes });
      return row;
    });
    return this.respond(saved);
  }

  /** Its linked identities go with it (accounts keep their other ways to sign in). */
  async delete(id: string, actor: Actor): Promise<void> {
    await this.repo.transaction(async (m) => {
      const current = await this.repo.findProvider(id, m);
      if (!current) {
        throw new AppException(OAuthError.PROVIDER_NOT_FOUND);
      }
      await this.repo.deleteProvider(id, m);
      await this.audit.record(m, actor, { action: 'auth_provider.deleted', targetType: 'auth_provider', targetId: id, changes: { before: pick(current, AUDITED) } });
    });
  }
}
