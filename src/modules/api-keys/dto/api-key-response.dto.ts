import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';

export class ApiKeyResponseDto {
  identifier!: string;
  name!: string;
  start!: string;
  permissions!: string[];
  expiresAt!: string;
  lastUsedAt!: string | null;
  createdAt!: string;
}

export class CreatedApiKeyResponseDto {
  identifier!: string;
  name!: string;
  start!: string;
  permissions!: string[];
  expiresAt!: string;
  createdAt!: string;
  /** The key itself; shown only in this response. */
  key!: string;
}

export const toApiKeyResponse = (key: ApiKeyEntity): ApiKeyResponseDto => ({
  identifier: key.identifier,
  name: key.name,
  start: key.start,
  permissions: key.permissions,
  expiresAt: key.expiresAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  createdAt: key.createdAt.toISOString(),
});

export const toCreatedApiKeyResponse = (key: ApiKeyEntity, secret: string): CreatedApiKeyResponseDto => ({
  identifier: key.identifier,
  name: key.name,
  start: key.start,
  permissions: key.permissions,
  expiresAt: key.expiresAt.toISOString(),
  createdAt: key.createdAt.toISOString(),
  key: secret,
});
