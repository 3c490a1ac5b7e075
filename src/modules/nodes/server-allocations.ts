import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import type { AllocationSnapshot } from 'src/modules/nodes/allocation-snapshot';
import { type AllocationOfServer, NodesRepository } from 'src/modules/nodes/nodes.repository';

/**
 * The allocations servers hold, for the servers module: the nodes module owns the allocation table,
 * so a server's ports are read, locked, given and taken back here. Methods taking a manager run in
 * the caller's transaction, so that a server's change and its allocations' are one step.
 */
@Injectable()
export class ServerAllocations {
  constructor(private readonly repo: NodesRepository) {}

  /** A server's allocations by ip, then port; without a manager (outside a transaction) served from HotCaches when warm. */
  of(serverId: string, manager?: EntityManager): Promise<AllocationEntity[]> {
    return this.repo.allocationsOf(serverId, manager);
  }

  /** A server's allocations as the cache shares them (never to be changed): for answers built per request. */
  snapshotsOf(serverId: string): Promise<readonly AllocationSnapshot[]> {
    return this.repo.allocationSnapshotsOf(serverId);
  }

  /** The allocations of several servers in one query (list pages), by server id; each server is a key. */
  async byServer(serverIds: string[]): Promise<Map<string, AllocationOfServer[]>> {
    const byServer = new Map<string, AllocationOfServer[]>(serverIds.map((id) => [id, []]));
    for (const row of await this.repo.findAllocationsOfServers(serverIds)) {
      byServer.get(row.serverId)?.push(row);
    }
    return byServer;
  }

  /** Locks and returns the free allocations with these ids on the node. */
  lockFree(nodeId: string, ids: string[], manager: EntityManager): Promise<AllocationEntity[]> {
    return this.repo.lockFreeAllocations(nodeId, ids, manager);
  }

  /** The lowest free allocation on a node, locked so two creations cannot take it together. */
  lockFirstFree(nodeId: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return this.repo.lockFirstFreeAllocation(nodeId, manager);
  }

  /** The lowest free allocation on a node, on `ip` when one is free there, locked so two requests cannot take it together. */
  lockFreePreferring(nodeId: string, ip: string | null, manager: EntityManager): Promise<AllocationEntity | null> {
    return this.repo.lockFreeAllocationPreferring(nodeId, ip, manager);
  }

  /** One of a server's allocations, locked until the transaction ends; null when it is not the server's. */
  lockOneOf(serverId: string, id: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return this.repo.lockAllocationOf(serverId, id, manager);
  }

  /**
   * A free allocation for a deployment: on the first of `nodeIds` (in their order) that has one, with a
   * port in one of `portRanges` when given, and with `dedicatedIp` on an address no server uses yet.
   */
  findForDeployment(nodeIds: string[], portRanges: [number, number][], dedicatedIp: boolean): Promise<{ id: string; nodeId: string } | null> {
    return this.repo.findDeployAllocation(nodeIds, portRanges, dedicatedIp);
  }

  /** The node an allocation belongs to, or null when there is no such allocation. */
  nodeOf(id: string): Promise<string | null> {
    return this.repo.nodeOfAllocation(id);
  }

  assign(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    return this.repo.assignAllocations(serverId, ids, manager);
  }

  /** Takes these of the server's allocations back (ids it does not hold are left alone). */
  release(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    return this.repo.releaseAllocations(serverId, ids, manager);
  }

  /** Gives an allocation back to the node: no server, no notes. */
  free(id: string, manager: EntityManager): Promise<void> {
    return this.repo.freeAllocation(id, manager);
  }

  /** Holds free allocations (locked by lockFree) for a transfer, so nothing else can take them. */
  reserve(transferId: string, ids: string[], manager: EntityManager): Promise<void> {
    return this.repo.reserveAllocations(transferId, ids, manager);
  }

  /** Frees what a transfer held. */
  unreserve(transferId: string, manager: EntityManager): Promise<void> {
    return this.repo.unreserveAllocations(transferId, manager);
  }

  /** A finished transfer: the server's old allocations go back to their node, the held ones become its own; answers how many it took. */
  swapForTransfer(serverId: string, transferId: string, oldIds: string[], manager: EntityManager): Promise<number> {
    return this.repo.swapAllocations(serverId, transferId, oldIds, manager);
  }

  /** The allocations a transfer holds. */
  reservedBy(transferId: string, manager?: EntityManager): Promise<AllocationEntity[]> {
    return this.repo.findReservedAllocations(transferId, manager);
  }

  setNotes(id: string, notes: string | null, manager: EntityManager): Promise<void> {
    return this.repo.setAllocationNotes(id, notes, manager);
  }
}
