import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { BackupHostEntity, backupHostSecretContext, PART_SIZE_DEFAULT_MIB } from 'src/modules/backups/backup-host.entity';
import { BackupError } from 'src/modules/backups/backups.errors';
import {
  BackupHostResponseDto,
  BackupHostTestDto,
  CreateBackupHostDto,
  toBackupHostResponse,
  UpdateBackupHostDto,
} from 'src/modules/backups/hosts/backup-host.dto';
import { BackupHostsRepository } from 'src/modules/backups/hosts/backup-hosts.repository';
import { S3StorageClient } from 'src/modules/backups/hosts/s3-storage.client';
import { NodesService } from 'src/modules/nodes/nodes.service';

/** What the audit log records of a host; the secret never, only that it changed. */
const HOST_FIELDS = ['name', 'adapter', 'endpoint', 'region', 'bucket', 'keyPrefix', 'accessKeyId', 'pathStyle', 'partSizeMib'] as const;

/** The S3 fields a `wings` host does not keep. */
const NO_S3 = { endpoint: null, region: null, bucket: null, keyPrefix: '', accessKeyId: null, secretAccessKey: null, pathStyle: false } as const;

/** Backup hosts admin (docs/backup-hosts.md): where nodes send their backups. */
@Injectable()
export class BackupHostsService {
  constructor(
    private readonly repo: BackupHostsRepository,
    private readonly audit: AuditService,
    private readonly secrets: SecretBox,
    private readonly s3: S3StorageClient,
    private readonly nodes: NodesService,
  ) {}

  async list(page: Page): Promise<Paginated<BackupHostResponseDto>> {
    const [rows, total] = await this.repo.findPage(page.skip, page.perPage);
    const backups = await this.repo.countBackups(rows.map((h) => h.id));
    const nodes = await Promise.all(rows.map((h) => this.nodes.countUsingBackupHost(h.id)));
    return paginated(
      rows.map((h, i) => toBackupHostResponse(h, { nodes: nodes[i], backups: backups.get(h.id) ?? 0 })),
      total,
      page,
    );
  }

  async get(id: string): Promise<BackupHostResponseDto> {
    return this.view(await this.require(id));
  }

  /** The host with this id, for the backups of a node (null when there is none). */
  find(id: string): Promise<BackupHostEntity | null> {
    return this.repo.find(id);
  }

  findS3Hosts(): Promise<BackupHostEntity[]> {
    return this.repo.findS3Hosts();
  }

  async create(dto: CreateBackupHostDto, actor: Actor): Promise<BackupHostResponseDto> {
    const host = await this.repo.transaction(async (manager) => {
      const { secretAccessKey, ...fields } = dto;
      const draft = this.shape({
        keyPrefix: '',
        pathStyle: false,
        partSizeMib: PART_SIZE_DEFAULT_MIB,
        endpoint: null,
        region: null,
        ...fields,
        secretAccessKey: secretAccessKey ?? null,
      });
      const inserted = await this.repo.save({ ...draft, secretAccessKey: null }, manager);
      // Sealed once the row has its id, so that the ciphertext is bound to this row.
      const saved =
        draft.adapter === 's3' && secretAccessKey !== undefined
          ? await this.repo.save({ ...inserted, secretAccessKey: this.secrets.seal(secretAccessKey, backupHostSecretContext(inserted)) }, manager)
          : inserted;
      await this.audit.record(manager, actor, {
        action: 'backup_host.created',
        targetType: 'backup_host',
        targetId: saved.id,
        changes: { after: pick(saved, HOST_FIELDS) },
      });
      return saved;
    });
    return toBackupHostResponse(host, { nodes: 0, backups: 0 });
  }

  /** A field left out keeps its value, the secret too; the adapter cannot change while backups are stored on the host. */
  async update(id: string, dto: UpdateBackupHostDto, actor: Actor): Promise<BackupHostResponseDto> {
    const host = await this.repo.transaction(async (manager) => {
      const current = await this.repo.lock(id, manager);
      if (!current) {
        throw new AppException(BackupError.HOST_NOT_FOUND);
      }
      const { secretAccessKey, ...fields } = dto;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<BackupHostEntity>;
      if (defined.adapter !== undefined && defined.adapter !== current.adapter && (await this.backupCount(id, manager)) > 0) {
        throw new AppException(BackupError.HOST_IN_USE, { message: 'The backup host holds backups; its adapter cannot change' });
      }
      const next = this.shape({
        ...current,
        ...defined,
        ...(secretAccessKey !== undefined ? { secretAccessKey: this.secrets.seal(secretAccessKey, backupHostSecretContext(current)) } : {}),
      });
      const saved = await this.repo.save(next, manager);
      const changes = changedFields(current, saved, HOST_FIELDS);
      if (secretAccessKey !== undefined) {
        changes.after.secretAccessKey = '(changed)';
      }
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'backup_host.updated', targetType: 'backup_host', targetId: id, changes });
      }
      return saved;
    });
    return this.view(host);
  }

  /** 409 while a node sends its backups here or backups are stored here. */
  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      const host = await this.repo.lock(id, manager);
      if (!host) {
        throw new AppException(BackupError.HOST_NOT_FOUND);
      }
      // One after the other: a transaction is one connection, which runs one query at a time (pg 9 refuses a second).
      const nodes = await this.nodes.countUsingBackupHost(id, manager);
      const backups = await this.backupCount(id, manager);
      if (nodes > 0 || backups > 0) {
        throw new AppException(BackupError.HOST_IN_USE, {
          message: `The backup host is used by ${nodes} node(s) and holds ${backups} backup(s); move them away first`,
          details: { nodes, backups },
        });
      }
      await this.repo.delete(id, manager);
      await this.audit.record(manager, actor, {
        action: 'backup_host.deleted',
        targetType: 'backup_host',
        targetId: id,
        changes: { before: pick(host, HOST_FIELDS) },
      });
    });
  }

  /** Writes and deletes a tiny object with the stored settings; a refusal is a finding (ok: false), not an error of this call. */
  async test(id: string): Promise<BackupHostTestDto> {
    const host = await this.require(id);
    if (host.adapter !== 's3') {
      throw new AppException(BackupError.NOT_S3, { message: 'Only an s3 backup host can be tested; a wings host keeps backups on each node' });
    }
    try {
      await this.s3.probe(host);
      return { ok: true };
    } catch (e) {
      if (e instanceof AppException) {
        return { ok: false, error: (e.details as { storageError?: string } | undefined)?.storageError ?? e.message };
      }
      throw e;
    }
  }

  private async require(id: string): Promise<BackupHostEntity> {
    const host = await this.repo.find(id);
    if (!host) {
      throw new AppException(BackupError.HOST_NOT_FOUND);
    }
    return host;
  }

  private async view(host: BackupHostEntity): Promise<BackupHostResponseDto> {
    const [nodes, backups] = await Promise.all([this.nodes.countUsingBackupHost(host.id), this.backupCount(host.id)]);
    return toBackupHostResponse(host, { nodes, backups });
  }

  private async backupCount(id: string, manager?: EntityManager): Promise<number> {
    return (await this.repo.countBackups([id], manager)).get(id) ?? 0;
  }

  /** A wings host keeps no S3 settings; an s3 host must have its bucket and both keys (an update is checked merged with the stored row). */
  private shape<T extends Partial<BackupHostEntity>>(host: T): T {
    if (host.adapter !== 's3') {
      return { ...host, ...NO_S3 };
    }
    const missing = (['bucket', 'accessKeyId', 'secretAccessKey'] as const).filter((f) => !host[f]);
    if (missing.length > 0) {
      throw new AppException(CommonError.VALIDATION_FAILED, {
        details: missing.map((field) => ({ field, message: `${field} is required for an s3 backup host` })),
      });
    }
    return host;
  }
}
