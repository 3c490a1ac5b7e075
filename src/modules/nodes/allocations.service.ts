import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService } from 'src/modules/audit/audit.service';
import { AllocationFilter, AllocationResponseDto, CreateAllocationsDto, toAllocationResponse } from 'src/modules/nodes/dto/allocation.dto';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';

/** Pterodactyl's bounds: no privileged ports, and at most 1000 ports in one range. */
const PORT_FLOOR = 1024;
const PORT_CEIL = 65535;
const RANGE_LIMIT = 1000;

/** Expands `["25565", "25570-25580"]` into distinct ports, or reports what is wrong. */
const expandPorts = (specs: string[]): number[] | string => {
  const ports = new Set<number>();
  for (const spec of specs) {
    const [from, to = from] = spec.split('-').map(Number);
    if (from < PORT_FLOOR || to > PORT_CEIL) {
      return `${spec}: ports must be between ${PORT_FLOOR} and ${PORT_CEIL}`;
    }
    if (to < from) {
      return `${spec}: a range must go from the lower to the higher port`;
    }
    if (to - from + 1 > RANGE_LIMIT) {
      return `${spec}: a range may hold at most ${RANGE_LIMIT} ports`;
    }
    for (let p = from; p <= to; p++) {
      ports.add(p);
    }
  }
  return [...ports].sort((a, b) => a - b);
};

@Injectable()
export class AllocationsService {
  constructor(
    private readonly repo: NodesRepository,
    private readonly audit: AuditService,
  ) {}

  /** Each of these servers' allocations (servers without any are absent). */
  async ofServers(serverIds: string[]): Promise<Map<string, AllocationResponseDto[]>> {
    const byServer = new Map<string, AllocationResponseDto[]>();
    for (const row of await this.repo.findAllocationsOfServers(serverIds)) {
      const list = byServer.get(row.serverId) ?? [];
      list.push(toAllocationResponse(row));
      byServer.set(row.serverId, list);
    }
    return byServer;
  }

  async list(nodeId: string, page: Page, filter: AllocationFilter = {}): Promise<Paginated<AllocationResponseDto>> {
    await this.requireNode(nodeId);
    const [rows, total] = await this.repo.findAllocationPage(nodeId, page.skip, page.perPage, filter);
    return paginated(rows.map(toAllocationResponse), total, page);
  }

  /** All or nothing: one port already on this IP refuses the whole request. */
  create(nodeId: string, dto: CreateAllocationsDto, actor: Actor): Promise<AllocationResponseDto[]> {
    const ports = expandPorts(dto.ports);
    if (typeof ports === 'string') {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'ports', message: ports }] });
    }
    // One spelling per address, so `2001:DB8::1` and `2001:db8::1` cannot both hold a port.
    const ip = ipaddr.parse(dto.ip).toString();
    return this.repo.transaction(async (manager) => {
      await this.requireNode(nodeId, manager);
      const taken = await this.repo.findTakenPorts(nodeId, ip, ports, manager);
      if (taken.length > 0) {
        throw new AppException(NodeError.ALLOCATION_EXISTS, {
          details: { ip, ports: taken.map((a) => a.port).sort((a, b) => a - b) },
        });
      }
      const rows = await this.repo.insertAllocations(
        ports.map((port) => ({ nodeId, ip, port, alias: dto.alias ?? null, notes: null, serverId: null })),
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'allocation.created',
        targetType: 'node',
        targetId: nodeId,
        changes: { after: { ip, ports: dto.ports, count: rows.length } },
      });
      return rows.map(toAllocationResponse);
    });
  }

  delete(nodeId: string, id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      await this.requireNode(nodeId, manager);
      const allocation = await this.repo.findAllocation(nodeId, id, manager);
      if (!allocation) {
        throw new AppException(NodeError.ALLOCATION_NOT_FOUND);
      }
      if (allocation.serverId !== null) {
        throw new AppException(NodeError.ALLOCATION_ASSIGNED);
      }
      if (allocation.reservedByTransferId !== null) {
        throw new AppException(NodeError.ALLOCATION_RESERVED);
      }
      await this.repo.deleteAllocation(id, manager);
      await this.audit.record(manager, actor, {
        action: 'allocation.deleted',
        targetType: 'allocation',
        targetId: id,
        changes: { before: { nodeId, ip: allocation.ip, port: allocation.port } },
      });
    });
  }

  private async requireNode(nodeId: string, manager?: Parameters<NodesRepository['findNode']>[1]): Promise<void> {
    if (!(await this.repo.findNode(nodeId, manager))) {
      throw new AppException(NodeError.NOT_FOUND);
    }
  }
}
