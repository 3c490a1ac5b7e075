import { isDecimalId } from 'src/common/validation/decimal-id.pipe';
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { SecretBox } from 'src/common/crypto/secret-box';
import { ALPHANUMERIC, randomString } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { CursorPage, CursorPaginated, cursorPaginated } from 'src/common/http/cursor';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AppConfigService } from 'src/config/app-config.service';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { DaemonGateway, DaemonSystemInfo, nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { buildDaemonConfiguration, DaemonConfiguration, toDaemonYaml } from 'src/modules/nodes/daemon-configuration';
import { CreateNodeDto, NodeResponseDto, toNodeResponse, UpdateNodeDto } from 'src/modules/nodes/dto/node.dto';
import { baseUrlOf, NodeEntity } from 'src/modules/nodes/node.entity';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { MountsService } from 'src/modules/mounts/mounts.service';
import { NodeOrigins } from 'src/modules/nodes/node-origins';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';
import type { ListQuery } from 'src/database/like';
import { errorMessage } from 'src/common/errors/error-message';

const NODE_FIELDS = [
  'name',
  'description',
  'locationId',
  'backupHostId',
  'fqdn',
  'scheme',
  'public',
  'maintenanceMode',
  'allowInsecure',
  'behindProxy',
  'memory',
  'memoryOverallocate',
  'disk',
  'diskOverallocate',
  'uploadSize',
  'daemonBase',
  'daemonListen',
  'daemonSftp',
  'daemonAuth',
] as const;

/** Fields that end up in the daemon's config.yml: changing one pushes the configuration. */
const DAEMON_FIELDS = ['fqdn', 'scheme', 'behindProxy', 'uploadSize', 'daemonBase', 'daemonListen', 'daemonSftp'] as const;

/** Whether the node took a configuration push; the change itself is saved either way. */
interface PushOutcome {
  configurationPushed: boolean;
  pushError?: string;
}

const newCredentials = (): { tokenIdentifier: string; token: string } => ({
  tokenIdentifier: randomString(16, ALPHANUMERIC),
  token: randomString(64, ALPHANUMERIC),
});

@Injectable()
export class NodesService {
  private readonly logger = new Logger(NodesService.name);

  constructor(
    private readonly repo: NodesRepository,
    private readonly audit: AuditService,
    private readonly secrets: SecretBox,
    private readonly daemon: DaemonGateway,
    private readonly config: AppConfigService,
    private readonly origins: NodeOrigins,
    private readonly clock: Clock,
    private readonly mounts: MountsService,
  ) {}

  /** `only`: an administrator role's nodes (null: every node). */
  async list(page: Page, list: ListQuery = {}, only: ReadonlySet<string> | null = null): Promise<Paginated<NodeResponseDto>> {
    const [rows, total] = await this.repo.findNodePage(page.skip, page.perPage, list, only);
    return paginated(rows.map(toNodeResponse), total, page);
  }

  /** The same list as cursor pages, in id order. */
  async listByCursor(page: CursorPage, only: ReadonlySet<string> | null = null): Promise<CursorPaginated<NodeResponseDto>> {
    const rows = await this.repo.findNodeKeysetPage(page.keyset, page.perPage + 1, only);
    return cursorPaginated(rows, page, (n) => [n.id], (kept) => kept.map(toNodeResponse));
  }

  /** Which of `ids` are nodes (an administrator role's), for other modules. */
  existingIds(ids: readonly string[], manager?: EntityManager): Promise<Set<string>> {
    return this.repo.existingIds(ids, manager);
  }

  /** The node or null, for other modules (a new server's node). */
  findNode(id: string, manager?: EntityManager): Promise<NodeEntity | null> {
    return this.repo.findNode(id, manager);
  }

  /** How many nodes send their backups to this backup host (a host in use cannot be deleted). */
  countUsingBackupHost(backupHostId: string, manager?: EntityManager): Promise<number> {
    return this.repo.countNodesWithBackupHost(backupHostId, manager);
  }

  /** The node a daemon token names (its identifier part), for the daemon callbacks' guard. */
  /** The node, locked until the caller's transaction ends. */
  lockNode(id: string, manager: EntityManager): Promise<NodeEntity | null> {
    return this.repo.lockNode(id, manager);
  }

  /** Every node (for placing servers). */
  allNodes(): Promise<NodeEntity[]> {
    return this.repo.findAllNodes();
  }

  /** How many nodes and locations the panel holds. */
  async counts(): Promise<{ nodes: number; locations: number }> {
    const [nodes, locations] = await Promise.all([this.repo.countNodes(), this.repo.countLocations()]);
    return { nodes, locations };
  }

  /**
   * Whether each of the first `take` nodes' daemon answers GET /api/system within `timeoutMs`, all at
   * once; `waiting` for one that fails and has never been heard from (Wings not set up yet). The first
   * answer marks the node as heard from, as the node page's health check does.
   */
  async health(take: number, timeoutMs: number): Promise<{ node: NodeEntity; status: 'reachable' | 'waiting' | 'unreachable' }[]> {
    const nodes = await this.repo.findFirstNodes(take);
    return Promise.all(
      nodes.map(async (node) => {
        const answered = await this.daemon.systemInformation(node, timeoutMs).then(
          () => true,
          () => false,
        );
        if (answered) {
          await this.heardFrom(node);
        }
        return { node, status: answered ? 'reachable' : node.daemonContactedAt ? 'unreachable' : 'waiting' } as const;
      }),
    );
  }

  async get(id: string): Promise<NodeEntity> {
    const node = await this.repo.findNode(id);
    if (!node) {
      throw new AppException(NodeError.NOT_FOUND);
    }
    return node;
  }

  async create(dto: CreateNodeDto, actor: Actor): Promise<NodeEntity> {
    const created = await this.repo.transaction(async (manager) => {
      if (dto.locationId && !(await this.repo.findLocation(dto.locationId, manager))) {
        throw new AppException(NodeError.LOCATION_NOT_FOUND);
      }
      const uuid = randomUUID();
      const { tokenIdentifier, token } = newCredentials();
      const draft = { scheme: 'https' as const, daemonListen: 8080, ...dto, fqdn: dto.fqdn.toLowerCase() };
      const node = await this.repo.saveNode(
        {
          ...draft,
          uuid,
          description: dto.description ?? null,
          locationId: dto.locationId ?? null,
          backupHostId: dto.backupHostId ?? null,
          baseUrl: baseUrlOf(draft),
          tokenIdentifier,
          tokenSecret: this.secrets.seal(token, nodeTokenContext({ uuid })),
        },
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'node.created',
        targetType: 'node',
        targetId: node.id,
        changes: { after: pick(node, NODE_FIELDS) },
      });
      return node;
    });
    // The browser may talk to the new node at once (the CSP's connect-src).
    await this.origins.reload();
    return created;
  }

  async update(id: string, dto: UpdateNodeDto, actor: Actor): Promise<{ node: NodeEntity } & PushOutcome> {
    const { before, after } = await this.repo.transaction(async (manager) => {
      const current = await this.repo.findNode(id, manager);
      if (!current) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      if (dto.locationId && !(await this.repo.findLocation(dto.locationId, manager))) {
        throw new AppException(NodeError.LOCATION_NOT_FOUND);
      }
      const next = { ...current, ...dto, fqdn: (dto.fqdn ?? current.fqdn).toLowerCase() };
      const saved = await this.repo.saveNode({ ...next, baseUrl: baseUrlOf(next) }, manager);
      const changes = changedFields(current, saved, NODE_FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'node.updated', targetType: 'node', targetId: id, changes });
      }
      return { before: current, after: saved };
    });
    if (before.baseUrl !== after.baseUrl) {
      await this.origins.reload();
    }
    if (!DAEMON_FIELDS.some((f) => before[f] !== after[f])) {
      return { node: after, configurationPushed: false };
    }
    // The daemon still listens where it did: push through the old address, then forget it.
    const outcome = await this.push(before, await this.configurationOf(after));
    this.daemon.forget(before);
    return { node: after, ...outcome };
  }

  /** New token identifier and token; the daemon is told through its current credentials. */
  async resetToken(id: string, actor: Actor): Promise<{ node: NodeEntity } & PushOutcome> {
    const { before, after } = await this.repo.transaction(async (manager) => {
      const current = await this.repo.findNode(id, manager);
      if (!current) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      const { tokenIdentifier, token } = newCredentials();
      const saved = await this.repo.saveNode(
        { ...current, tokenIdentifier, tokenSecret: this.secrets.seal(token, nodeTokenContext(current)) },
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'node.token_reset',
        targetType: 'node',
        targetId: id,
        changes: { before: { tokenIdentifier: current.tokenIdentifier }, after: { tokenIdentifier } },
      });
      return { before: current, after: saved };
    });
    const outcome = await this.push(before, await this.configurationOf(after));
    this.daemon.forget(before);
    return { node: after, ...outcome };
  }

  async delete(id: string, actor: Actor): Promise<void> {
    await this.repo.transaction(async (manager) => {
      const node = await this.repo.findNode(id, manager);
      if (!node) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      await this.repo.deleteNode(id, manager);
      this.daemon.forget(node);
      await this.audit.record(manager, actor, {
        action: 'node.deleted',
        targetType: 'node',
        targetId: id,
        changes: { before: pick(node, NODE_FIELDS) },
      });
    });
    await this.origins.reload();
  }

  /** The config.yml the node's Wings should run with (docs/wings.md#configuration); holds the daemon token. */
  async configurationOf(node: NodeEntity): Promise<DaemonConfiguration> {
    return buildDaemonConfiguration(node, this.daemon.tokenOf(node), this.config.http.appUrl, await this.mounts.allowedMounts(node.id));
  }

  /**
   * The node's config.yml as the route answers it: `format` is json (the default) or yaml, checked
   * before the node is looked up; then `allowed` may refuse the node found (it holds the daemon token).
   */
  async configurationFile(id: string, format: unknown, allowed: (node: NodeEntity) => void = () => undefined): Promise<{ yaml: string } | { json: DaemonConfiguration }> {
    if (format !== undefined && format !== 'json' && format !== 'yaml') {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'format', message: 'format must be json or yaml' }] });
    }
    const node = await this.get(id);
    allowed(node);
    const configuration = await this.configurationOf(node);
    return format === 'yaml' ? { yaml: toDaemonYaml(configuration) } : { json: configuration };
  }

  /**
   * A daemon's system information. Without `node`: the only node; with several, 400 asking for
   * one; with none, 503 asking to add one.
   */
  async systemInformationOf(node: unknown): Promise<DaemonSystemInfo> {
    if (node !== undefined) {
      if (!isDecimalId(node)) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      return this.systemInformation(node);
    }
    const nodes = await this.repo.findUpToTwoNodes();
    if (nodes.length === 0) {
      throw new AppException(DaemonError.NO_NODE);
    }
    if (nodes.length > 1) {
      throw new AppException(DaemonError.NODE_REQUIRED);
    }
    return this.systemInformation(nodes[0].id);
  }

  /** The daemon's answer; the first one marks the node as heard from (daemonContactedAt). */
  async systemInformation(id: string): Promise<DaemonSystemInfo> {
    const node = await this.get(id);
    const info = await this.daemon.systemInformation(node);
    await this.heardFrom(node);
    return info;
  }

  /** Marks a node whose daemon just answered as heard from, the first time only. */
  private async heardFrom(node: NodeEntity): Promise<void> {
    if (!node.daemonContactedAt) {
      await this.repo.markDaemonContacted(node.id, this.clock.now());
    }
  }

  private async push(node: NodeEntity, configuration: DaemonConfiguration): Promise<PushOutcome> {
    try {
      const { applied } = await this.daemon.updateConfiguration(node, configuration);
      return applied === false
        ? { configurationPushed: false, pushError: 'The daemon ignores configuration updates (ignore_panel_config_updates)' }
        : { configurationPushed: true };
    } catch (e) {
      const message = errorMessage(e);
      this.logger.warn({ nodeId: node.id, error: message }, 'could not push the configuration to the node');
      return { configurationPushed: false, pushError: message };
    }
  }
}
