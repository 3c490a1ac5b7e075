import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { DatabaseHostEntity, hostPasswordContext } from 'src/modules/databases/database-host.entity';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import { DatabasesRepository } from 'src/modules/databases/databases.repository';
import {
  CreateDatabaseHostDto,
  DatabaseHostResponseDto,
  DatabaseHostTestDto,
  toDatabaseHostResponse,
  UpdateDatabaseHostDto,
} from 'src/modules/databases/dto/database-host.dto';
import { MySqlHostClient } from 'src/modules/databases/mysql-host.client';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { EntityManager } from 'typeorm';
import { NodesService } from 'src/modules/nodes/nodes.service';

/** What the audit log records of a host; the password never, only that it changed. */
const HOST_FIELDS = ['name', 'host', 'port', 'username', 'maxDatabases', 'maxUserConnections', 'nodeId'] as const;

/** Database hosts admin. */
@Injectable()
export class DatabaseHostsService {
  constructor(
    private readonly repo: DatabasesRepository,
    private readonly audit: AuditService,
    private readonly secrets: SecretBox,
    private readonly client: MySqlHostClient,
    private readonly nodes: NodesService,
  ) {}

  async list(page: Page): Promise<Paginated<DatabaseHostResponseDto>> {
    const [rows, total] = await this.repo.findHostPage(page.skip, page.perPage);
    const counts = await this.repo.countByHost(rows.map((h) => h.id));
    return paginated(
      rows.map((h) => toDatabaseHostResponse(h, counts.get(h.id) ?? 0)),
      total,
      page,
    );
  }

  async get(id: string): Promise<DatabaseHostResponseDto> {
    return this.view(await this.require(id));
  }

  async create(dto: CreateDatabaseHostDto, actor: Actor): Promise<DatabaseHostResponseDto> {
    const host = await this.repo.transaction(async (manager) => {
      await this.checkNode(dto.nodeId, manager);
      const { password, ...fields } = dto;
      const inserted = await this.repo.saveHost(
        { ...fields, maxDatabases: dto.maxDatabases ?? null, maxUserConnections: dto.maxUserConnections ?? null, nodeId: dto.nodeId ?? null, password: '' },
        manager,
      );
      // Sealed once the row has its id, so that the ciphertext is bound to this row.
      const saved = await this.repo.saveHost({ ...inserted, password: this.secrets.seal(password, hostPasswordContext(inserted)) }, manager);
      await this.audit.record(manager, actor, {
        action: 'database_host.created',
        targetType: 'database_host',
        targetId: saved.id,
        changes: { after: pick(saved, HOST_FIELDS) },
      });
      return saved;
    });
    return toDatabaseHostResponse(host, 0);
  }

  async update(id: string, dto: UpdateDatabaseHostDto, actor: Actor): Promise<DatabaseHostResponseDto> {
    const host = await this.repo.transaction(async (manager) => {
      const current = await this.repo.lockHost(id, manager);
      if (!current) {
        throw new AppException(DatabaseError.HOST_NOT_FOUND);
      }
      await this.checkNode(dto.nodeId, manager);
      const { password, ...fields } = dto;
      const saved = await this.repo.saveHost(
        {
          ...current,
          ...fields,
          ...(password !== undefined ? { password: this.secrets.seal(password, hostPasswordContext(current)) } : {}),
        },
        manager,
      );
      const changes = changedFields(current, saved, HOST_FIELDS);
      if (password !== undefined) {
        changes.after.password = '(changed)';
      }
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'database_host.updated', targetType: 'database_host', targetId: id, changes });
      }
      return saved;
    });
    return this.view(host);
  }

  /** Refused while databases live on the host: they would be orphaned there. */
  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      const host = await this.repo.lockHost(id, manager);
      if (!host) {
        throw new AppException(DatabaseError.HOST_NOT_FOUND);
      }
      if (((await this.repo.countByHost([id], manager)).get(id) ?? 0) > 0) {
        throw new AppException(DatabaseError.HOST_HAS_DATABASES);
      }
      await this.repo.deleteHost(id, manager);
      await this.audit.record(manager, actor, {
        action: 'database_host.deleted',
        targetType: 'database_host',
        targetId: id,
        changes: { before: pick(host, HOST_FIELDS) },
      });
    });
  }

  /** Signs in with the stored account; a host that cannot be reached is a finding, not an error of this call. */
  async test(id: string): Promise<DatabaseHostTestDto> {
    const host = await this.require(id);
    try {
      return { connected: true, version: await this.client.version(host) };
    } catch (e) {
      if (!(e instanceof AppException)) {
        throw e;
      }
      return { connected: false, error: { code: e.code, message: e.message } };
    }
  }

  private async require(id: string): Promise<DatabaseHostEntity> {
    const host = await this.repo.findHost(id);
    if (!host) {
      throw new AppException(DatabaseError.HOST_NOT_FOUND);
    }
    return host;
  }

  private async view(host: DatabaseHostEntity): Promise<DatabaseHostResponseDto> {
    const counts = await this.repo.countByHost([host.id]);
    return toDatabaseHostResponse(host, counts.get(host.id) ?? 0);
  }

  private async checkNode(nodeId: string | null | undefined, manager: EntityManager): Promise<void> {
    if (nodeId && !(await this.nodes.findNode(nodeId, manager))) {
      throw new AppException(NodeError.NOT_FOUND);
    }
  }
}
