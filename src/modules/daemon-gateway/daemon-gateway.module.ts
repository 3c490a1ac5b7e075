import { Global, Module } from '@nestjs/common';
import { SecretBox } from 'src/common/crypto/secret-box';
import { DaemonClient } from 'src/modules/daemon-gateway/daemon.client';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';

@Global()
@Module({
  providers: [DaemonClient, DaemonGateway, SecretBox],
  exports: [DaemonGateway, SecretBox],
})
export class DaemonGatewayModule {}
