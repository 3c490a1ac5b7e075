import { Injectable } from '@nestjs/common';
import { SecretBox } from 'src/common/crypto/secret-box';
import { DaemonClient, DaemonTarget } from 'src/modules/daemon-gateway/daemon.client';
import type { DaemonConfiguration } from 'src/modules/nodes/daemon-configuration';
import type { NodeEntity } from 'src/modules/nodes/node.entity';

/** Wings' `GET /api/system` (wings.md §2.3). */
export interface DaemonSystemInfo {
  architecture: string;
  cpu_count: number;
  kernel_version: string;
  os: string;
  version: string;
}

/** Wings' stats object (wings.md §3.5). */
export interface DaemonStats {
  memory_bytes: number;
  memory_limit_bytes: number;
  cpu_absolute: number;
  network: { rx_bytes: number; tx_bytes: number };
  uptime: number;
  state: string;
  disk_bytes: number;
}

/** Wings' APIResponse for one server (wings.md §2.10). */
export interface DaemonServerDetails {
  state: string;
  is_suspended: boolean;
  utilization: DaemonStats;
}

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** The sealing context of a node's daemon token. */
export const nodeTokenContext = (node: Pick<NodeEntity, 'uuid'>): string => `node:${node.uuid}:token`;

/**
 * The only place services reach a node from: one method per daemon call (wings.md §2), each
 * building the target (address, TLS, auth header) from the node row.
 */
@Injectable()
export class DaemonGateway {
  constructor(
    private readonly client: DaemonClient,
    private readonly secrets: SecretBox,
  ) {}

  /** The node's daemon token, opened from its sealed column. */
  tokenOf(node: NodeEntity): string {
    return this.secrets.open(node.tokenSecret, nodeTokenContext(node));
  }

  target(node: NodeEntity): DaemonTarget {
    const token = this.tokenOf(node);
    return {
      nodeId: String(node.id),
      baseUrl: node.baseUrl,
      allowInsecure: node.allowInsecure,
      // Wings wants the token alone (wings.md §1.1); `combined` is for daemons that want id.token.
      authorization: node.daemonAuth === 'combined' ? `Bearer ${node.tokenIdentifier}.${token}` : `Bearer ${token}`,
    };
  }

  systemInformation(node: NodeEntity): Promise<DaemonSystemInfo> {
    return this.client.json<DaemonSystemInfo>(this.target(node), { method: 'GET', path: '/api/system', timeoutMs: 10_000 });
  }

  /** POST /api/update (wings.md §6.3): Wings applies the configuration over its own. */
  updateConfiguration(node: NodeEntity, config: DaemonConfiguration): Promise<{ applied: boolean }> {
    return this.client.json<{ applied: boolean }>(this.target(node), { method: 'POST', path: '/api/update', body: config });
  }

  /** Wings answers 202 only after it fetched the server's configuration from us (wings.md §1.8). */
  async createServer(node: NodeEntity, uuid: string, startOnCompletion: boolean): Promise<void> {
    await this.client.send(this.target(node), {
      method: 'POST',
      path: '/api/servers',
      body: { uuid, start_on_completion: startOnCompletion },
      timeoutMs: 60_000,
    });
  }

  async deleteServer(node: NodeEntity, uuid: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'DELETE', path: `/api/servers/${uuid}`, timeoutMs: 60_000 });
  }

  serverDetails(node: NodeEntity, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    return this.client.json<DaemonServerDetails>(this.target(node), { method: 'GET', path: `/api/servers/${uuid}`, timeoutMs });
  }

  async power(node: NodeEntity, uuid: string, action: PowerAction): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/power`, body: { action } });
  }

  async commands(node: NodeEntity, uuid: string, commands: string[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/commands`, body: { commands } });
  }

  /** Wings re-reads the server's configuration from us (limits, image, suspension). */
  async sync(node: NodeEntity, uuid: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/sync` });
  }

  async reinstall(node: NodeEntity, uuid: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/reinstall` });
  }

  forget(node: NodeEntity): void {
    this.client.forget(String(node.id));
  }
}
