import { Global, Module } from '@nestjs/common';
import { SecretBox } from 'src/common/crypto/secret-box';
import { DaemonClient } from 'src/modules/daemon-gateway/daemon.client';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';

@Global()
@Module({
  providers: [DaemonClient, DaemonGateway, DaemonTokenSigner, SecretBox],
  exports: [DaemonGateway, DaemonTokenSigner, SecretBox],
})
export class DaemonGatewayModule {}
