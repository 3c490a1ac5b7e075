import { Module } from '@nestjs/common';
import { AuthModule } from 'src/modules/auth/auth.module';
import { LiveStatusController } from 'src/modules/live-status/live-status.controller';
import { LiveStatusGateway } from 'src/modules/live-status/live-status.gateway';
import { LiveStatusService } from 'src/modules/live-status/live-status.service';
import { NodeListings } from 'src/modules/live-status/node-listings';
import { ServersModule } from 'src/modules/servers/servers.module';

/** The live-status WebSocket, `/api/ws` (docs/api.md#live-status). */
@Module({
  imports: [AuthModule, ServersModule],
  controllers: [LiveStatusController],
  providers: [LiveStatusService, LiveStatusGateway, NodeListings],
  exports: [LiveStatusService],
})
export class LiveStatusModule {}
