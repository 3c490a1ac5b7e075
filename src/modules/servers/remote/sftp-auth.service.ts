import { Injectable, Logger } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AppException } from 'src/common/errors/app.exception';
import type { ErrorDef } from 'src/common/errors/error-codes';
import type { HttpReply } from 'src/common/http/http';
import { rateLimitKey, setRateLimitHeaders } from 'src/common/rate-limit/rate-limit.headers';
import { RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';
import { Clock } from 'src/common/clock';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import type { SftpAuthDto } from 'src/modules/servers/remote/remote.dto';
import { SftpError } from 'src/modules/servers/remote/sftp-auth.errors';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerContextResolver, ServerSnapshot, wingsPermissionsOf } from 'src/modules/servers/server-context';
import { parsePublicKey } from 'src/modules/ssh-keys/ssh-public-key';
import { SshKeysService } from 'src/modules/ssh-keys/ssh-keys.service';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

/**
 * 5 attempts per 60 s per client IP. Failed attempts are counted (a busy office
 * behind one address opening several SFTP connections is not refused for succeeding), and a success
 * clears nothing: it proves only that the client knows some account, never the ones it was guessing.
 */
const SFTP_MAX_FAILURES = 5;
const SFTP_WINDOW_MS = 60_000;
const SFTP_RULE = 'sftp';

/** States in which the server's files must not be touched (Pterodactyl's ServerStateConflictException). */
const BUSY_STATUSES = new Set(['installing', 'install_failed', 'reinstall_failed', 'restoring_backup']);

interface SftpAuthAnswer {
  server: string;
  /** The user's uuid: Wings files the session's activity under it. */
  user: string;
  permissions: string[];
}

/**
 * `POST /api/remote/sftp/auth` (docs/wings.md#sftp). Wings shows every
 * 4xx to the SFTP client as "invalid credentials"; the statuses differ for the daemon's logs.
 */
@Injectable()
export class SftpAuthService {
  private readonly logger = new Logger(SftpAuthService.name);
  /** The last attempt under way per client address. */
  private readonly attempts = new Map<string, Promise<unknown>>();

  constructor(
    private readonly contexts: ServerContextResolver,
    private readonly users: UsersService,
    private readonly keys: SshKeysService,
    private readonly limits: RateLimitStorage,
    private readonly clock: Clock,
    private readonly activityLog: ServerActivityLog,
  ) {}

  /** Answers Wings; `res` carries the client address's rate-limit headers. */
  async authenticate(node: NodeEntity, dto: SftpAuthDto, daemonIp: string | undefined, res: HttpReply): Promise<SftpAuthAnswer> {
    const clientIp = clientAddress(dto.ip) ?? daemonIp ?? 'unknown';
    // One attempt at a time per client address, so that parallel guesses cannot all pass the check
    // before any of their failures is counted.
    const previous = this.attempts.get(clientIp) ?? Promise.resolve();
    const attempt = previous.then(() => this.attempt(node, dto, clientIp, res));
    const settled = attempt.catch(() => undefined);
    this.attempts.set(clientIp, settled);
    void settled.then(() => {
      if (this.attempts.get(clientIp) === settled) {
        this.attempts.delete(clientIp);
      }
    });
    return attempt;
  }

  private async attempt(node: NodeEntity, dto: SftpAuthDto, clientIp: string, res: HttpReply): Promise<SftpAuthAnswer> {
    const limitKey = rateLimitKey(SFTP_RULE, `ip:${clientIp}`);
    const seen = await this.limits.peek(limitKey, SFTP_RULE);
    const now = this.clock.now().getTime();
    if (seen) {
      setRateLimitHeaders(res, { limit: SFTP_MAX_FAILURES, ...seen }, now, seen.totalHits >= SFTP_MAX_FAILURES);
      if (seen.totalHits >= SFTP_MAX_FAILURES) {
        const retryAfter = Math.max(1, Math.ceil((seen.resetAt - now) / 1000));
        throw new AppException(SftpError.TOO_MANY_ATTEMPTS, { details: { retryAfterSeconds: retryAfter } });
      }
    }

    const fail = async (error: ErrorDef, reason: string, server?: ServerSnapshot, user?: UserEntity | null) => {
      const failures = await this.limits.increment(limitKey, SFTP_WINDOW_MS, SFTP_MAX_FAILURES, SFTP_WINDOW_MS, SFTP_RULE);
      setRateLimitHeaders(res, { limit: SFTP_MAX_FAILURES, ...failures }, this.clock.now().getTime(), false);
      this.logger.warn(`SFTP login refused for "${dto.username}" from ${clientIp} on node ${node.id}: ${reason}`);
      if (server) {
        await this.activityLog.bySystem(server.id, 'sftp', 'server.sftp.denied', { username: dto.username, method: dto.type, reason }, {
          user,
          ip: ipaddr.isValid(clientIp) ? clientIp : null,
        });
      }
      return new AppException(error);
    };

    const dot = dto.username.lastIndexOf('.');
    const name = dot > 0 ? dto.username.slice(0, dot) : '';
    const ref = dot > 0 ? dto.username.slice(dot + 1) : '';
    // Credentials first, whatever the server: the answer takes as long for a server that does not exist.
    const user = name === '' ? null : await this.users.findByUsername(name);
    const matched = await this.credentialsMatch(user, dto);
    const server = await this.contexts.byRef(ref);
    if (!server || server.nodeId !== node.id) {
      throw await fail(SftpError.SERVER_NOT_FOUND, server ? 'the server is on another node' : 'no such server');
    }
    if (!matched) {
      throw await fail(SftpError.INVALID_CREDENTIALS, dto.type === 'password' ? 'wrong username or password' : 'unknown key', server, user);
    }
    const account = user!;
    if (account.suspended) {
      throw await fail(SftpError.INVALID_CREDENTIALS, 'the account is suspended', server, account);
    }
    const permissions = await this.permissions(server, account);
    if (!permissions) {
      throw await fail(SftpError.INVALID_CREDENTIALS, 'the user may not use SFTP on this server', server, account);
    }
    if (server.suspended || (server.status !== null && BUSY_STATUSES.has(server.status))) {
      throw new AppException(SftpError.SERVER_BUSY, {
        message: server.suspended ? 'The server is suspended' : `The server is not available for SFTP while ${server.status}`,
      });
    }
    return { server: server.uuid, user: account.uuid, permissions };
  }

  /** The password (argon2, or bcrypt carried over from Pterodactyl; constant work when the user is unknown) or the key's SHA-256 fingerprint. */
  private async credentialsMatch(user: UserEntity | null, dto: SftpAuthDto): Promise<boolean> {
    if (dto.type === 'password') {
      return this.users.verifyPassword(user, dto.password);
    }
    const key = parsePublicKey(dto.password);
    if (!user || 'error' in key) {
      return false;
    }
    return this.keys.holds(user.id, key.fingerprint);
  }

  /** `["*"]` for the owner and admins; a subuser's mapped permissions only with server.files.sftp. */
  private async permissions(server: ServerSnapshot, user: UserEntity): Promise<string[] | null> {
    const context = await this.contexts.forAccount(server, user);
    if (!context) {
      return null;
    }
    return context.role !== 'subuser' || context.permissions.includes('server.files.sftp') ? wingsPermissionsOf(context) : null;
  }
}

/** The host part of Wings' `host:port` (IPv6 as `[::1]:port`). */
const clientAddress = (hostPort: string | undefined): string | undefined => {
  if (!hostPort) {
    return undefined;
  }
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hostPort);
  const host = bracketed ? bracketed[1] : hostPort.includes('.') ? hostPort.replace(/:\d+$/, '') : hostPort;
  return ipaddr.isValid(host) ? ipaddr.process(host).toString() : undefined;
};
