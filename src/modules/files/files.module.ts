import { Module } from '@nestjs/common';
import { outboundPolicyProvider } from 'src/common/http/outbound-policy.provider';
import { FilesController } from 'src/modules/files/files.controller';
import { FilesService } from 'src/modules/files/files.service';
import { ServersModule } from 'src/modules/servers/servers.module';

@Module({
  imports: [ServersModule],
  controllers: [FilesController],
  providers: [FilesService, outboundPolicyProvider],
  exports: [FilesService],
})
export class FilesModule {}
