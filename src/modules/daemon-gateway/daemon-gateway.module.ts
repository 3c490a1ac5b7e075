import { Global, Module } from '@nestjs/common';
import { SecretBox } from 'src/common/crypto/secret-box';
import { DaemonClient } from 'src/modules/daemon-gateway/daemon.client';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonUrlSigner } from 'src/modules/daemon-gateway/daemon-url-signer';

@Global()
@Module({
  providers: [DaemonClient, DaemonGateway, DaemonUrlSigner, SecretBox],
  exports: [DaemonGateway, DaemonUrlSigner, SecretBox],
})
export class DaemonGatewayModule {}
