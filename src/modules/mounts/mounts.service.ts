import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { CreateMountDto, MountDetailDto, MountResponseDto, toMountResponse, UpdateMountDto } from 'src/modules/mounts/dto/mount.dto';
import type { MountEntity } from 'src/modules/mounts/mount.entity';
import { normalizeMountPath, sourceProblem, targetProblem } from 'src/modules/mounts/mount-paths';
import { MountError } from 'src/modules/mounts/mounts.errors';
import { ConfiguredMount, MountsRepository, ServerMountRow } from 'src/modules/mounts/mounts.repository';

export type { ServerMountRow };

/** What the audit log records of a mount. */
const MOUNT_FIELDS = ['name', 'description', 'source', 'target', 'readOnly', 'userMountable'] as const;

/** The server a mount is attached to or detached from, as the servers module hands it over. */
interface MountableServer {
  id: string;
  eggId: string;
  nodeId: string;
  egg: { name: string };
  node: { name: string; daemonBase: string };
}

/** Mounts (admin), their links to eggs and nodes, and what servers and nodes get of them. */
@Injectable()
export class MountsService {
  constructor(
    private readonly repo: MountsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(page: Page, search?: string): Promise<Paginated<MountResponseDto>> {
    const [rows, total] = await this.repo.findPage(page.skip, page.perPage, search);
    return paginated(rows.map(toMountResponse), total, page);
  }

  async get(id: string): Promise<MountDetailDto> {
    return this.detail(await this.require(id));
  }

  async create(dto: CreateMountDto, actor: Actor): Promise<MountDetailDto> {
    const paths = checkPaths({ source: dto.source, target: dto.target });
    const mount = await this.repo.transaction(async (manager) => {
      const saved = await this.repo.save(
        {
          uuid: randomUUID(),
          name: dto.name,
          description: dto.description ?? null,
          source: paths.source!,
          target: paths.target!,
          readOnly: dto.readOnly ?? false,
          userMountable: dto.userMountable ?? false,
        },
        manager,
      );
      await this.audit.record(manager, actor, { action: 'mount.created', targetType: 'mount', targetId: saved.id, changes: { after: pick(saved, MOUNT_FIELDS) } });
      return saved;
    });
    return this.detail(mount);
  }

  /** A new source is checked against the data directory of every node the mount is linked to as well. */
  async update(id: string, dto: UpdateMountDto, actor: Actor): Promise<MountDetailDto> {
    const mount = await this.repo.transaction(async (manager) => {
      const current = await this.lockOrThrow(id, manager);
      const links = dto.source !== undefined ? await this.repo.linksOf(id, manager) : undefined;
      const paths = checkPaths({ source: dto.source, target: dto.target }, links?.nodes.map((n) => n.daemonBase));
      const saved = await this.repo.save(
        {
          ...current,
          ...(dto.name !== undefined ? { name: dto.name } : {}),
          ...(dto.description !== undefined ? { description: dto.description } : {}),
          ...(paths.source !== undefined ? { source: paths.source } : {}),
          ...(paths.target !== undefined ? { target: paths.target } : {}),
          ...(dto.readOnly !== undefined ? { readOnly: dto.readOnly } : {}),
          ...(dto.userMountable !== undefined ? { userMountable: dto.userMountable } : {}),
        },
        manager,
      );
      const changes = changedFields(current, saved, MOUNT_FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, { action: 'mount.updated', targetType: 'mount', targetId: id, changes });
      }
      return saved;
    });
    return this.detail(mount);
  }

  /** Refused while servers have the mount attached: they would lose it at their next restart unseen. */
  delete(id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      const mount = await this.lockOrThrow(id, manager);
      const servers = await this.repo.countServers(id, manager);
      if (servers > 0) {
        throw new AppException(MountError.IN_USE, {
          message: `The mount is attached to ${servers} server${servers === 1 ? '' : 's'}; detach it from them first`,
        });
      }
      await this.repo.delete(id, manager);
      await this.audit.record(manager, actor, { action: 'mount.deleted', targetType: 'mount', targetId: id, changes: { before: pick(mount, MOUNT_FIELDS) } });
    });
  }

  async linkEggs(id: string, eggIds: string[], actor: Actor): Promise<MountDetailDto> {
    const mount = await this.repo.transaction(async (manager) => {
      const current = await this.lockOrThrow(id, manager);
      const before = (await this.repo.linksOf(id, manager)).eggs.map((e) => e.id);
      const added = [...new Set(eggIds)].filter((e) => !before.includes(e));
      if (added.length > 0) {
        await this.repo.linkEggs(id, added, manager);
        await this.audit.record(manager, actor, { action: 'mount.eggs.linked', targetType: 'mount', targetId: id, changes: { after: { name: current.name, eggIds: added } } });
      }
      return current;
    });
    return this.detail(mount);
  }

  async unlinkEgg(id: string, eggId: string, actor: Actor): Promise<MountDetailDto> {
    const mount = await this.repo.transaction(async (manager) => {
      const current = await this.lockOrThrow(id, manager);
      if (await this.repo.unlinkEgg(id, eggId, manager)) {
        await this.audit.record(manager, actor, { action: 'mount.egg.unlinked', targetType: 'mount', targetId: id, changes: { before: { name: current.name, eggId } } });
      }
      return current;
    });
    return this.detail(mount);
  }

  /** The mount's source is checked against each new node's data directory. */
  async linkNodes(id: string, nodeIds: string[], actor: Actor): Promise<MountDetailDto> {
    const mount = await this.repo.transaction(async (manager) => {
      const current = await this.lockOrThrow(id, manager);
      const before = (await this.repo.linksOf(id, manager)).nodes.map((n) => n.id);
      const added = [...new Set(nodeIds)].filter((n) => !before.includes(n));
      if (added.length > 0) {
        await this.repo.linkNodes(id, added, manager);
        // The nodes' data directories are read through the links just made; a clash rolls them back.
        const nodes = (await this.repo.linksOf(id, manager)).nodes.filter((n) => added.includes(n.id));
        for (const node of nodes) {
          const problem = sourceProblem(current.source, [node.daemonBase]);
          if (problem) {
            throw new AppException(CommonError.VALIDATION_FAILED, {
              details: [{ field: 'nodeIds', message: `the mount's source ${problem} on node ${node.name}` }],
            });
          }
        }
        await this.audit.record(manager, actor, { action: 'mount.nodes.linked', targetType: 'mount', targetId: id, changes: { after: { name: current.name, nodeIds: added } } });
      }
      return current;
    });
    return this.detail(mount);
  }

  async unlinkNode(id: string, nodeId: string, actor: Actor): Promise<MountDetailDto> {
    const mount = await this.repo.transaction(async (manager) => {
      const current = await this.lockOrThrow(id, manager);
      if (await this.repo.unlinkNode(id, nodeId, manager)) {
        await this.audit.record(manager, actor, { action: 'mount.node.unlinked', targetType: 'mount', targetId: id, changes: { before: { name: current.name, nodeId } } });
      }
      return current;
    });
    return this.detail(mount);
  }

  // ---- for the servers and nodes modules ---------------------------------------------------------

  /** Mounts attached to the server or offered to it (linked to its egg and its node). */
  forServer(server: Pick<MountableServer, 'id' | 'eggId' | 'nodeId'>, manager?: EntityManager): Promise<ServerMountRow[]> {
    return this.repo.forServer(server.id, server.eggId, server.nodeId, manager);
  }

  /**
   * Attaches the mount to the server inside the caller's transaction: only one linked to the
   * server's egg and node. The mount and whether it was newly attached.
   */
  async attach(server: MountableServer, mountId: string, manager: EntityManager): Promise<{ mount: MountEntity; changed: boolean }> {
    const mount = await this.lockOrThrow(mountId, manager);
    const links = await this.repo.linkState(mountId, server.eggId, server.nodeId, manager);
    if (!links.eggLinked || !links.nodeLinked) {
      const missing = [...(links.eggLinked ? [] : [`egg ${server.egg.name}`]), ...(links.nodeLinked ? [] : [`node ${server.node.name}`])];
      throw new AppException(MountError.NOT_LINKED, {
        message: `Mount ${mount.name} is not linked to this server's ${missing.join(' and ')}; link it on the mount's page first`,
        details: links,
      });
    }
    // The node's data directory may have moved since the mount was linked to it.
    const problem = sourceProblem(mount.source, [server.node.daemonBase]);
    if (problem) {
      throw new AppException(MountError.UNSAFE_ON_NODE, { message: `Mount ${mount.name}'s source ${problem} on node ${server.node.name}; change its source first` });
    }
    return { mount, changed: await this.repo.attach(mountId, server.id, manager) };
  }

  /** Detaches the mount (a mount not attached is a no-op; one that does not exist is a 404). */
  async detach(server: MountableServer, mountId: string, manager: EntityManager): Promise<{ mount: MountEntity; changed: boolean }> {
    const mount = await this.lockOrThrow(mountId, manager);
    return { mount, changed: await this.repo.detach(mountId, server.id, manager) };
  }

  /** The `mounts` of each server's Wings configuration (docs/wings.md#server-configuration). */
  configuredFor(serverIds: string[], manager?: EntityManager): Promise<Map<string, ConfiguredMount[]>> {
    return this.repo.configuredFor(serverIds, manager);
  }

  /** The node's `allowed_mounts`. */
  allowedMounts(nodeId: string): Promise<string[]> {
    return this.repo.sourcesForNode(nodeId);
  }

  private async require(id: string): Promise<MountEntity> {
    const mount = await this.repo.find(id);
    if (!mount) {
      throw new AppException(MountError.NOT_FOUND);
    }
    return mount;
  }

  private async lockOrThrow(id: string, manager: EntityManager): Promise<MountEntity> {
    const mount = await this.repo.lock(id, manager);
    if (!mount) {
      throw new AppException(MountError.NOT_FOUND);
    }
    return mount;
  }

  private async detail(mount: MountEntity): Promise<MountDetailDto> {
    const links = await this.repo.linksOf(mount.id);
    return { ...toMountResponse(mount), eggs: links.eggs, nodes: links.nodes.map(({ id, name }) => ({ id, name })), servers: links.servers };
  }
}

/** The paths given, normalised; every problem with them at once, as a 400 naming each field. */
const checkPaths = (given: { source?: string; target?: string }, daemonBases: string[] = []): { source?: string; target?: string } => {
  const details: { field: string; message: string }[] = [];
  const out: { source?: string; target?: string } = {};
  for (const field of ['source', 'target'] as const) {
    const value = given[field];
    if (value === undefined) {
      continue;
    }
    const normal = normalizeMountPath(value);
    if ('error' in normal) {
      details.push({ field, message: `${field} ${normal.error}` });
      continue;
    }
    const problem = field === 'source' ? sourceProblem(normal.path, daemonBases) : targetProblem(normal.path);
    if (problem) {
      details.push({ field, message: `${field} ${problem}` });
      continue;
    }
    out[field] = normal.path;
  }
  if (details.length > 0) {
    throw new AppException(CommonError.VALIDATION_FAILED, { details });
  }
  return out;
};
