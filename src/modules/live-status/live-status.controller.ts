import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AuthError } from 'src/common/auth/auth.errors';
import { requestOrigin } from 'src/common/auth/trusted-origin';
import { AppException } from 'src/common/errors/app.exception';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { completeUpgrade, isUpgrade } from 'src/common/http/ws-adapter';
import { AppConfigService } from 'src/config/app-config.service';
import type { AuthContext } from 'src/common/auth/auth-context';
import { AuthService } from 'src/modules/auth/auth.service';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { CLOSE_TOO_MANY_SOCKETS, LiveStatusError } from 'src/modules/live-status/live-status.errors';
import { LIVE_STATUS_PATH, LiveStatusGateway } from 'src/modules/live-status/live-status.gateway';
import { LiveStatusService } from 'src/modules/live-status/live-status.service';

/**
 * The upgrade request of the live-status socket. It is routed like any request (FastifyWsAdapter),
 * so the rate limit and the credential checks of every route apply before the socket opens.
 */
@ApiTags('client: live status')
@Controller(LIVE_STATUS_PATH.slice(1))
export class LiveStatusController {
  constructor(
    private readonly gateway: LiveStatusGateway,
    private readonly live: LiveStatusService,
    private readonly auth: AuthService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Live status and resource use of the servers the caller watches, over a WebSocket (docs/api.md#live-status)' })
  @ApiResponse({ status: 101, description: 'Switched to the WebSocket protocol; the frames are in docs/api.md#live-status' })
  upgrade(@Req() req: HttpRequest, @Res() reply: HttpReply, @CurrentAuth() auth: AuthContext): void {
    if (!isUpgrade(req) || headerOf(req, 'upgrade')?.toLowerCase() !== 'websocket') {
      throw new AppException(LiveStatusError.UPGRADE_REQUIRED, { status: 426 });
    }
    // Cross-site WebSocket hijacking: a browser always names the page's origin on an upgrade.
    const origin = requestOrigin(req);
    if (origin !== undefined && !this.config.http.trustedOrigins.includes(origin)) {
      throw new AppException(AuthError.UNTRUSTED_ORIGIN, { message: 'WebSocket connections must come from a trusted origin' });
    }
    const held = this.auth.heldCredential(req);
    if (!held) {
      throw new AppException(AuthError.UNAUTHENTICATED);
    }
    completeUpgrade(this.gateway.server, req, reply, (client) => {
      // Refused after the upgrade, not before, so that a browser (which sees no HTTP status of a failed
      // upgrade) reads why in the close code. The new socket goes, not an old one: closing the oldest would let
      // an eleventh tab, or a script on the same account, cut off a dashboard someone is watching, and tabs
      // reconnecting would take each other's places in turn.
      if (!this.live.open(client, auth, held)) {
        client.close(CLOSE_TOO_MANY_SOCKETS, `Too many live-status connections: at most ${this.config.liveStatus.maxSocketsPerUser} per account`);
      }
    });
  }
}
