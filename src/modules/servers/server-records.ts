import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { LoadedServer, ServerStatus } from 'src/modules/servers/server.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';

/**
 * What other modules (backups, databases) do to a server's row: the servers module owns the table,
 * so they do it here, with their transaction's manager where the step spans both tables.
 */
@Injectable()
export class ServerRecords {
  constructor(private readonly servers: ServersRepository) {}

  /** Locks the server's row until `manager`'s transaction ends: a per-server limit is checked and used in one step. */
  lock(id: string, manager: EntityManager): Promise<void> {
    return this.servers.lockServer(id, manager);
  }

  /**
   * Marks the server as restoring if it is still in the state the caller checked (not suspended,
   * status `expected`); false when something changed meanwhile (another restore, an install).
   */
  markRestoring(id: string, expected: ServerStatus | null): Promise<boolean> {
    return this.servers.markRestoring(id, expected);
  }

  /** Ends a restore: the server goes back to `status` (null when the restore is over). */
  endRestoring(id: string, status: ServerStatus | null, manager?: EntityManager): Promise<void> {
    return this.servers.endRestoring(id, status, manager);
  }

  /** The node the server is on; null when there is no such server. */
  async nodeOf(id: string): Promise<string | null> {
    return (await this.servers.findById(id))?.nodeId ?? null;
  }

  /** These servers of the node (by uuid), with their node, egg and active transfer. */
  onNode(nodeId: string, uuids: string[]): Promise<LoadedServer[]> {
    return this.servers.findLoadedByUuidsOnNode(nodeId, uuids);
  }
}
