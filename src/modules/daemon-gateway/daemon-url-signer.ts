import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { Clock } from 'src/common/clock';
import { ALPHANUMERIC, randomString } from 'src/common/crypto/tokens';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { NodeEntity } from 'src/modules/nodes/node.entity';

/** Signed daemon URLs live 15 minutes, as Pterodactyl's do. */
const SIGNED_URL_SECONDS = 900;

/** The signed-URL routes of Wings. */
type SignedDaemonRoute = '/download/file' | '/download/backup' | '/upload/file';

/**
 * One-time URLs for the node's signed routes (docs/wings.md#signed-urls): an HS256 JWT keyed with
 * the node token, whole-second dates, and a fresh `unique_id` so that each URL serves one request.
 */
@Injectable()
export class DaemonUrlSigner {
  constructor(
    private readonly daemon: DaemonGateway,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
  ) {}

  sign(
    server: { uuid: string; node: NodeEntity },
    user: { id: string; uuid: string },
    route: SignedDaemonRoute,
    claims: Record<string, unknown>,
  ): string {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = jwt.sign(
      {
        iss: this.config.http.appUrl.replace(/\/+$/, ''),
        aud: [server.node.baseUrl],
        iat: now,
        nbf: now - 300,
        exp: now + SIGNED_URL_SECONDS,
        server_uuid: server.uuid,
        user_uuid: user.uuid,
        user_id: Number(user.id),
        unique_id: randomString(16, ALPHANUMERIC),
        ...claims,
      },
      this.daemon.tokenOf(server.node),
      { algorithm: 'HS256' },
    );
    const url = new URL(route, `${server.node.scheme}://${server.node.fqdn}:${server.node.daemonListen}`);
    url.searchParams.set('token', token);
    return url.href;
  }
}
