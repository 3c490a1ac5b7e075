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

  forget(node: NodeEntity): void {
    this.client.forget(String(node.id));
  }
}
