import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, SubscribeMessage, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { WebSocket, WebSocketServer as WsServer } from 'ws';
import { AppException } from 'src/common/errors/app.exception';
import { WsGatewayOptions, wsError } from 'src/common/http/ws-adapter';
import { LiveStatusError } from 'src/modules/live-status/live-status.errors';
import { LiveStatusService, MAX_WATCHED } from 'src/modules/live-status/live-status.service';

export const LIVE_STATUS_PATH = '/api/ws';

const GATEWAY_OPTIONS: WsGatewayOptions = {
  path: LIVE_STATUS_PATH,
  // A subscribe of 100 uuids is about 4 KiB.
  maxPayload: 16 * 1024,
  // A page that changes what it shows subscribes again; a client has no reason to send more.
  maxMessages: 20,
  windowMs: 10_000,
};

/**
 * The frames of the live-status socket (docs/api.md#live-status). Connections are opened by
 * LiveStatusController, which authenticated the upgrade request; this handles what they send.
 */
@WebSocketGateway(0, GATEWAY_OPTIONS)
export class LiveStatusGateway implements OnGatewayDisconnect<WebSocket> {
  private readonly logger = new Logger(LiveStatusGateway.name);
  @WebSocketServer() server!: WsServer;

  constructor(private readonly live: LiveStatusService) {}

  handleDisconnect(client: WebSocket): void {
    this.live.close(client);
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): Promise<unknown> {
    const servers = (data as { servers?: unknown } | null)?.servers;
    if (!Array.isArray(servers) || !servers.every((s) => typeof s === 'string' && s.length <= 64)) {
      return wsError(LiveStatusError.SUBSCRIBE_INVALID.code, LiveStatusError.SUBSCRIBE_INVALID.message);
    }
    if (new Set(servers).size > MAX_WATCHED) {
      return wsError(LiveStatusError.TOO_MANY_SERVERS.code, LiveStatusError.TOO_MANY_SERVERS.message);
    }
    try {
      const accepted = await this.live.subscribe(client, servers as string[]);
      // null: a later subscribe overtook this one, and its answer is the one that counts.
      return accepted === null ? undefined : { event: 'subscribed', data: { servers: accepted } };
    } catch (err) {
      if (err instanceof AppException && err.status < 500) {
        return wsError(err.code, err.message);
      }
      this.logger.error({ err }, 'live status: subscribe failed');
      return wsError('INTERNAL_ERROR', 'The subscription could not be checked; try again');
    }
  }
}
