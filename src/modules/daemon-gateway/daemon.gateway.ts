import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { SharedRedis } from 'src/common/redis/shared-redis';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { DaemonClient, DaemonRequest, DaemonTarget } from 'src/modules/daemon-gateway/daemon.client';
import type { DaemonConfiguration } from 'src/modules/nodes/daemon-configuration';
import type { DaemonAuthMode, NodeEntity, NodeScheme } from 'src/modules/nodes/node.entity';

/** Wings' `GET /api/system`. */
export interface DaemonSystemInfo {
  architecture: string;
  cpu_count: number;
  kernel_version: string;
  os: string;
  version: string;
}

/** Wings' stats object (uptime in milliseconds). */
interface DaemonStats {
  memory_bytes: number;
  memory_limit_bytes: number;
  cpu_absolute: number;
  network: { rx_bytes: number; tx_bytes: number };
  uptime: number;
  state: string;
  disk_bytes: number;
}

/** Wings' APIResponse for one server. */
export interface DaemonServerDetails {
  state: string;
  is_suspended: boolean;
  utilization: DaemonStats;
}

/** One entry of Wings' `GET /api/servers`: the APIResponse, whose stored configuration names the server. */
type DaemonListedServer = DaemonServerDetails & { configuration?: { uuid?: unknown } };

/** Wings' Stat object. */
export interface DaemonFileStat {
  name: string;
  created?: string;
  modified?: string;
  mode: string;
  mode_bits?: string;
  size: number;
  directory: boolean;
  file: boolean;
  symlink?: boolean;
  mime?: string;
}

/** Wings waits for the archive to be written; Pterodactyl's panel gives it 15 minutes. */
const ARCHIVE_TIMEOUT_MS = 15 * 60_000;

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/**
 * How long one answer about a server's state serves everyone who asks (details pages polled by
 * many tabs, the resources page). Wings itself refreshes a server's stats about once a second.
 */
export const LIVE_STATE_MS = 1_000;
/**
 * A server's state and usage as the panel's processes share them through Redis: only what callers read
 * (a daemon's answer also carries the server's whole configuration).
 */
export const sharedServerState = (d: DaemonServerDetails): DaemonServerDetails => ({ state: d.state, is_suspended: d.is_suspended, utilization: d.utilization });

/** Where a server's shared live state is kept in Redis: `<prefix><node id>:<uuid>`. */
const LIVE_KEY = 'hatchery:live:';
const LIVE_STATE_MAX_ENTRIES = 10_000;
const OPENED_TOKENS_MAX = 1_000;

/**
 * How to reach a node's daemon, as plain values: what ServerContext carries (and the cache keeps), so
 * that a server route reaches its node without the node row. A NodeEntity is one too. The token
 * stays sealed: it is opened (once per sealed value) when a call or a JWT needs it, so a token that
 * cannot be opened fails that call, not whatever merely looked the server up.
 */
export interface DaemonNode {
  readonly id: string;
  readonly uuid: string;
  readonly name: string;
  /** `scheme://fqdn:daemonListen`: where the panel calls the daemon. */
  readonly baseUrl: string;
  /** Where browsers reach the daemon (console WebSocket, signed URLs). */
  readonly scheme: NodeScheme;
  readonly fqdn: string;
  readonly daemonListen: number;
  /** The node's SFTP port (shown to users, not called by the panel). */
  readonly daemonSftp: number;
  readonly allowInsecure: boolean;
  /** MiB a file upload may have. */
  readonly uploadSize: number;
  /** How calls authenticate (docs/wings.md#authentication). */
  readonly daemonAuth: DaemonAuthMode;
  readonly tokenIdentifier: string;
  /** The daemon token, sealed with SecretBox. */
  readonly tokenSecret: string;
}

/** The sealing context of a node's daemon token. */
export const nodeTokenContext = (node: Pick<NodeEntity, 'uuid'>): string => `node:${node.uuid}:token`;

/**
 * The only place services reach a node from: one method per daemon call
 * (docs/wings.md#daemon-calls), each building the target (address, TLS, auth header) from the node row.
 */
@Injectable()
export class DaemonGateway {
  /** Recent and in-flight `GET /api/servers/{uuid}` answers, by node id and server uuid. */
  private readonly live = new Map<string, { expires: number; answer: Promise<DaemonServerDetails> }>();
  /** Opened node tokens by sealing context and sealed value; a reset token is a new sealed value. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly client: DaemonClient,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly redis: SharedRedis,
  ) {}

  /** The node's daemon token, opened from its sealed column (once per sealed value: every daemon call needs it). */
  tokenOf(node: Pick<DaemonNode, 'uuid' | 'tokenSecret'>): string {
    const sealed = `${nodeTokenContext(node)}|${node.tokenSecret}`;
    let token = this.opened.get(sealed);
    if (token === undefined) {
      token = this.secrets.open(node.tokenSecret, nodeTokenContext(node));
      if (this.opened.size >= OPENED_TOKENS_MAX) {
        this.opened.clear();
      }
      this.opened.set(sealed, token);
    }
    return token;
  }

  /** The node as plain values (a DaemonNode picked out of its row). */
  reach(node: DaemonNode): DaemonNode {
    return {
      id: node.id,
      uuid: node.uuid,
      name: node.name,
      baseUrl: node.baseUrl,
      scheme: node.scheme,
      fqdn: node.fqdn,
      daemonListen: node.daemonListen,
      daemonSftp: node.daemonSftp,
      allowInsecure: node.allowInsecure,
      uploadSize: node.uploadSize,
      daemonAuth: node.daemonAuth,
      tokenIdentifier: node.tokenIdentifier,
      tokenSecret: node.tokenSecret,
    };
  }

  private target(node: DaemonNode): DaemonTarget {
    const token = this.tokenOf(node);
    return {
      nodeId: node.id,
      baseUrl: node.baseUrl,
      allowInsecure: node.allowInsecure,
      // Wings wants the token alone (docs/wings.md#authentication); `combined` is for daemons that want id.token.
      authorization: node.daemonAuth === 'combined' ? `Bearer ${node.tokenIdentifier}.${token}` : `Bearer ${token}`,
    };
  }

  systemInformation(node: NodeEntity, timeoutMs = 10_000): Promise<DaemonSystemInfo> {
    return this.client.json<DaemonSystemInfo>(this.target(node), { method: 'GET', path: '/api/system', timeoutMs });
  }

  /** POST /api/update: Wings applies the configuration over its own. */
  updateConfiguration(node: NodeEntity, config: DaemonConfiguration): Promise<{ applied: boolean }> {
    return this.client.json<{ applied: boolean }>(this.target(node), { method: 'POST', path: '/api/update', body: config });
  }

  /** Wings answers 202 only after it fetched the server's configuration from us. */
  async createServer(node: DaemonNode, uuid: string, startOnCompletion: boolean): Promise<void> {
    await this.client.send(this.target(node), {
      method: 'POST',
      path: '/api/servers',
      body: { uuid, start_on_completion: startOnCompletion },
      timeoutMs: 60_000,
    });
  }

  async deleteServer(node: DaemonNode, uuid: string): Promise<void> {
    await this.sendChanging(node, uuid, { method: 'DELETE', path: `/api/servers/${uuid}`, timeoutMs: 60_000 });
  }

  serverDetails(node: DaemonNode, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    return this.client.json<DaemonServerDetails>(this.target(node), { method: 'GET', path: `/api/servers/${uuid}`, timeoutMs });
  }

  /**
   * Every server the node runs, with its state and usage, in one call (Wings' `GET /api/servers`,
   * docs/wings.md#daemon-calls), by server uuid. Entries that name no server are skipped; an answer
   * that is not a list is DAEMON_BAD_RESPONSE.
   */
  async listServers(node: DaemonNode, timeoutMs: number): Promise<Map<string, DaemonServerDetails>> {
    const answer = await this.client.json<unknown>(this.target(node), { method: 'GET', path: '/api/servers', timeoutMs });
    if (!Array.isArray(answer)) {
      throw new AppException(DaemonError.BAD_RESPONSE, { details: { nodeId: node.id } });
    }
    const byUuid = new Map<string, DaemonServerDetails>();
    for (const entry of answer as (DaemonListedServer | null)[]) {
      const uuid = entry?.configuration?.uuid;
      if (typeof uuid === 'string' && entry && typeof entry.utilization === 'object' && entry.utilization !== null) {
        byUuid.set(uuid.toLowerCase(), entry);
      }
    }
    return byUuid;
  }

  /**
   * The server's state and usage as the daemon gave them within the last LIVE_STATE_MS: callers
   * asking at the same time share one daemon call, and its answer serves them for that long.
   * Failures are not kept. Power actions, syncs, reinstalls and deletions through this gateway
   * forget the server's entry once the daemon answered, so the panel's own changes show at once.
   */
  liveServerDetails(node: DaemonNode, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    return this.redis.enabled ? this.sharedServerDetails(node, uuid, timeoutMs) : this.localServerDetails(node, uuid, timeoutMs);
  }

  /** The live state kept in this process (one process, or Redis not reachable now). */
  private localServerDetails(node: DaemonNode, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    const key = `${node.id}:${uuid}`;
    const now = this.clock.now().getTime();
    const known = this.live.get(key);
    if (known && known.expires > now) {
      return known.answer;
    }
    if (this.live.size >= LIVE_STATE_MAX_ENTRIES) {
      this.sweepLive(now);
    }
    // In flight: shared until it settles, then kept for LIVE_STATE_MS from then.
    const entry = { expires: Number.POSITIVE_INFINITY, answer: this.serverDetails(node, uuid, timeoutMs) };
    this.live.set(key, entry);
    entry.answer.then(
      () => {
        entry.expires = this.clock.now().getTime() + LIVE_STATE_MS;
      },
      () => {
        if (this.live.get(key) === entry) {
          this.live.delete(key);
        }
      },
    );
    return entry.answer;
  }

  /**
   * The daemon's answer now, never one shared from before: for decisions that must not rest on an
   * answer the daemon may since have taken back (a console token for a server it no longer has).
   * The new answer, or its failure, replaces the shared one.
   */
  async currentServerDetails(node: DaemonNode, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    await this.forgetLive(node, uuid);
    return this.liveServerDetails(node, uuid, timeoutMs);
  }

  /** A call that changes the server's state: its shared live state is forgotten once the daemon answered. */
  private async sendChanging(node: DaemonNode, uuid: string, req: DaemonRequest): Promise<void> {
    try {
      await this.client.send(this.target(node), req);
    } finally {
      await this.forgetLive(node, uuid);
    }
  }

  /** Drops the server's shared live state, in this process and (with Redis) for every process. */
  private async forgetLive(node: DaemonNode, uuid: string): Promise<void> {
    this.live.delete(`${node.id}:${uuid}`);
    const redis = await this.redis.ready();
    await redis?.del(LIVE_KEY + `${node.id}:${uuid}`).catch((e: unknown) => this.redis.failed(e));
  }

  /**
   * The live state with several processes (REDIS_URL): kept in Redis for LIVE_STATE_MS, trimmed to what
   * callers read, so that the whole fleet asks the daemon once in that time and a change made through
   * any process is seen by every one at once (forgetLive). Asks in flight in this process are shared
   * as before; while Redis is not connected, the state is kept in this process as without it.
   */
  private async sharedServerDetails(node: DaemonNode, uuid: string, timeoutMs?: number): Promise<DaemonServerDetails> {
    const key = `${node.id}:${uuid}`;
    const asking = this.live.get(key);
    if (asking && asking.expires > this.clock.now().getTime()) {
      return asking.answer;
    }
    const redis = await this.redis.ready();
    if (!redis) {
      return this.localServerDetails(node, uuid, timeoutMs);
    }
    const kept = await redis.get(LIVE_KEY + key).catch((e: unknown) => {
      this.redis.failed(e);
      return null;
    });
    if (kept) {
      return JSON.parse(kept) as DaemonServerDetails;
    }
    const entry = { expires: Number.POSITIVE_INFINITY, answer: this.serverDetails(node, uuid, timeoutMs) };
    this.live.set(key, entry);
    try {
      const details = await entry.answer;
      await redis.set(LIVE_KEY + key, JSON.stringify(sharedServerState(details)), 'PX', LIVE_STATE_MS).catch((e: unknown) => this.redis.failed(e));
      return details;
    } finally {
      if (this.live.get(key) === entry) {
        this.live.delete(key);
      }
    }
  }

  private sweepLive(now: number): void {
    for (const [key, entry] of this.live) {
      if (entry.expires <= now) {
        this.live.delete(key);
      }
    }
    if (this.live.size >= LIVE_STATE_MAX_ENTRIES) {
      this.live.clear();
    }
  }

  async power(node: DaemonNode, uuid: string, action: PowerAction): Promise<void> {
    await this.sendChanging(node, uuid, { method: 'POST', path: `/api/servers/${uuid}/power`, body: { action } });
  }

  async commands(node: DaemonNode, uuid: string, commands: string[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/commands`, body: { commands } });
  }

  /** Wings re-reads the server's configuration from us (limits, image, suspension). */
  async sync(node: DaemonNode, uuid: string): Promise<void> {
    await this.sendChanging(node, uuid, { method: 'POST', path: `/api/servers/${uuid}/sync` });
  }

  /** Console tokens with these jtis issued before now stop working. */
  async denyTokens(node: DaemonNode, uuid: string, jtis: string[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: `/api/servers/${uuid}/ws/deny`, body: { jtis }, timeoutMs: 10_000 });
  }

  async reinstall(node: DaemonNode, uuid: string): Promise<void> {
    await this.sendChanging(node, uuid, { method: 'POST', path: `/api/servers/${uuid}/reinstall` });
  }

  // --- files; every path is relative to the server root and already checked by the caller ---

  listDirectory(node: DaemonNode, uuid: string, directory: string): Promise<DaemonFileStat[] | null> {
    return this.client.json<DaemonFileStat[] | null>(this.target(node), { method: 'GET', path: this.files(uuid, 'list-directory'), query: { directory } });
  }

  async fileContents(node: DaemonNode, uuid: string, file: string, maxBytes: number): Promise<string> {
    return (await this.client.send(this.target(node), { method: 'GET', path: this.files(uuid, 'contents'), query: { file }, maxBodyBytes: maxBytes })).text;
  }

  /** The file itself is the body; Wings needs its Content-Length, which a string body has. */
  async writeFile(node: DaemonNode, uuid: string, file: string, content: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: this.files(uuid, 'write'), query: { file }, rawBody: content });
  }

  async copyFile(node: DaemonNode, uuid: string, location: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: this.files(uuid, 'copy'), body: { location } });
  }

  async renameFiles(node: DaemonNode, uuid: string, root: string, files: { from: string; to: string }[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'PUT', path: this.files(uuid, 'rename'), body: { root, files } });
  }

  async deleteFiles(node: DaemonNode, uuid: string, root: string, files: string[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: this.files(uuid, 'delete'), body: { root, files } });
  }

  async createDirectory(node: DaemonNode, uuid: string, path: string, name: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: this.files(uuid, 'create-directory'), body: { name, path } });
  }

  compressFiles(node: DaemonNode, uuid: string, root: string, files: string[]): Promise<DaemonFileStat> {
    return this.client.json<DaemonFileStat>(this.target(node), {
      method: 'POST',
      path: this.files(uuid, 'compress'),
      body: { root, files },
      timeoutMs: ARCHIVE_TIMEOUT_MS,
    });
  }

  async decompressFile(node: DaemonNode, uuid: string, root: string, file: string): Promise<void> {
    await this.client.send(this.target(node), {
      method: 'POST',
      path: this.files(uuid, 'decompress'),
      body: { root, file },
      timeoutMs: ARCHIVE_TIMEOUT_MS,
    });
  }

  async chmodFiles(node: DaemonNode, uuid: string, root: string, files: { file: string; mode: string }[]): Promise<void> {
    await this.client.send(this.target(node), { method: 'POST', path: this.files(uuid, 'chmod'), body: { root, files } });
  }

  /** Background pull: Wings answers 202 with the download's identifier. */
  pullFile(node: DaemonNode, uuid: string, url: string, root: string): Promise<{ identifier: string }> {
    return this.client.json<{ identifier: string }>(this.target(node), { method: 'POST', path: this.files(uuid, 'pull'), body: { url, root } });
  }

  /** Streams a multipart upload to a signed `/upload/file` URL of the node. */
  async streamUpload(node: DaemonNode, signedUrl: string, body: NodeJS.ReadableStream, contentType: string): Promise<void> {
    const { authorization: _none, ...target } = this.target(node);
    await this.client.stream(target, signedUrl, body, { 'content-type': contentType });
  }

  // --- backups, local "wings" adapter; Wings answers 202 and reports back through /api/remote/backups ---

  /** `ignore` is the backup's ignored patterns joined by newlines; empty lets Wings use the server's .pteroignore. */
  /** `adapter` s3: Wings asks the panel for part URLs and uploads the archive there (docs/wings.md#backups). */
  async createBackup(node: DaemonNode, uuid: string, backupUuid: string, ignore: string, adapter: 'wings' | 's3' = 'wings'): Promise<void> {
    await this.client.send(this.target(node), {
      method: 'POST',
      path: `/api/servers/${uuid}/backup`,
      body: { adapter, uuid: backupUuid, ignore },
    });
  }

  /**
   * With `truncate`, Wings deletes every server file before it extracts the archive. An S3 backup
   * comes with `downloadUrl`, which Wings fetches before it answers.
   */
  async restoreBackup(node: DaemonNode, uuid: string, backupUuid: string, truncate: boolean, downloadUrl?: string): Promise<void> {
    await this.client.send(this.target(node), {
      method: 'POST',
      path: `/api/servers/${uuid}/backup/${backupUuid}/restore`,
      body: { adapter: downloadUrl ? 's3' : 'wings', truncate_directory: truncate, download_url: downloadUrl ?? '' },
    });
  }

  /** A missing archive is a daemon 404 ("The requested backup was not found on this server."). */
  async deleteBackup(node: DaemonNode, uuid: string, backupUuid: string): Promise<void> {
    await this.client.send(this.target(node), { method: 'DELETE', path: `/api/servers/${uuid}/backup/${backupUuid}` });
  }

  // --- transfers (docs/wings.md#transfers); the source answers 202 and the target reports to /api/remote ---

  /**
   * Asks the source node to stream the server's archive to the target's `/api/transfers`, with
   * `token` (`Bearer <jwt>` signed with the target's token) as the Authorization header verbatim.
   */
  async startTransfer(source: DaemonNode, uuid: string, target: DaemonNode, token: string): Promise<void> {
    await this.sendChanging(source, uuid, {
      method: 'POST',
      path: `/api/servers/${uuid}/transfer`,
      body: { url: `${target.baseUrl}/api/transfers`, token, server: { uuid, start_on_completion: false } },
      timeoutMs: 60_000,
    });
  }

  /** Stops an outgoing transfer on the source (409 when none runs there). */
  async cancelTransfer(source: DaemonNode, uuid: string): Promise<void> {
    await this.client.send(this.target(source), { method: 'DELETE', path: `/api/servers/${uuid}/transfer`, timeoutMs: 30_000 });
  }

  forget(node: NodeEntity): void {
    this.client.forget(node.id);
  }

  private files(uuid: string, action: string): string {
    return `/api/servers/${uuid}/files/${action}`;
  }
}
