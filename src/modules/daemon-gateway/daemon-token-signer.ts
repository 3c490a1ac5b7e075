import { createHash, createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { Clock } from 'src/common/clock';
import { ALPHANUMERIC, randomString } from 'src/common/crypto/tokens';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway, DaemonNode } from 'src/modules/daemon-gateway/daemon.gateway';

/** Signed daemon URLs live 15 minutes, as Pterodactyl's do; console tokens as long as CONSOLE_TOKEN_TTL_SECONDS says (900 by default). */
const SIGNED_URL_SECONDS = 900;

/** The signed-URL routes of Wings. */
type SignedDaemonRoute = '/download/file' | '/download/backup' | '/upload/file';

/** Who a token is for: Wings files what is done with it under this user. */
interface TokenUser {
  id: string;
  uuid: string;
}

/** The jti of a user's console tokens on a server, as Pterodactyl forms it, so `/ws/deny` can revoke them. */
export const consoleTokenId = (userId: string, serverUuid: string): string => createHash('md5').update(`${userId}${serverUuid}`).digest('hex');

/**
 * The one place Wings JWTs are made (docs/wings.md#console-tokens, docs/wings.md#signed-urls): HS256
 * keyed with the node's daemon token, whole-second dates from the panel's clock, 15 minutes, the
 * server and the user, and a fresh `unique_id`.
 */
@Injectable()
export class DaemonTokenSigner {
  constructor(
    private readonly daemon: DaemonGateway,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
  ) {}

  /** A console WebSocket token carrying these Wings permissions; its jti lets `/ws/deny` revoke it. */
  consoleToken(node: DaemonNode, serverUuid: string, user: TokenUser, permissions: readonly string[]): string {
    return this.sign(node, serverUuid, user, this.config.console.tokenTtlSeconds, { jti: consoleTokenId(user.id, serverUuid), permissions: [...permissions] });
  }

  /**
   * The token the source node presents to the target's `/api/transfers` (docs/wings.md#transfers):
   * signed with the TARGET node's token, `sub` the server uuid, jti sha256(uuid), 15 minutes.
   */
  transferToken(target: DaemonNode, serverUuid: string): string {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return jwt.sign(
      {
        iss: this.config.http.appUrl.replace(/\/+$/, ''),
        aud: [target.baseUrl],
        jti: createHash('sha256').update(serverUuid).digest('hex'),
        iat: now,
        nbf: now - 300,
        exp: now + SIGNED_URL_SECONDS,
        sub: serverUuid,
      },
      createSecretKey(Buffer.from(this.daemon.tokenOf(target), 'utf8')),
      { algorithm: 'HS256' },
    );
  }

  /** A one-time URL for one of the node's signed routes (the `unique_id` makes it serve one request). */
  signedUrl(node: DaemonNode, serverUuid: string, user: TokenUser, route: SignedDaemonRoute, claims: Record<string, unknown>): string {
    const url = new URL(route, `${node.scheme}://${node.fqdn}:${node.daemonListen}`);
    url.searchParams.set('token', this.sign(node, serverUuid, user, SIGNED_URL_SECONDS, claims));
    return url.href;
  }

  private sign(node: DaemonNode, serverUuid: string, user: TokenUser, lifetimeSeconds: number, claims: Record<string, unknown>): string {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return jwt.sign(
      {
        iss: this.config.http.appUrl.replace(/\/+$/, ''),
        aud: [node.baseUrl],
        iat: now,
        nbf: now - 300,
        exp: now + lifetimeSeconds,
        server_uuid: serverUuid,
        user_uuid: user.uuid,
        user_id: Number(user.id),
        unique_id: randomString(16, ALPHANUMERIC),
        ...claims,
      },
      // A KeyObject, not the string: given a string, jsonwebtoken first tries it as a PEM private key
      // and builds a thrown error per token, most of a console token's CPU.
      createSecretKey(Buffer.from(this.daemon.tokenOf(node), 'utf8')),
      // jsonwebtoken keeps the given iat (from our clock) as long as noTimestamp is not set.
      { algorithm: 'HS256' },
    );
  }
}
