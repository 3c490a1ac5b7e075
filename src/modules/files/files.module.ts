import { Module } from '@nestjs/common';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { FilesController } from 'src/modules/files/files.controller';
import { FilesService } from 'src/modules/files/files.service';
import { ServersModule } from 'src/modules/servers/servers.module';

@Module({
  imports: [ServersModule],
  controllers: [FilesController],
  providers: [FilesService, { provide: OutboundPolicy, useValue: new OutboundPolicy() }],
})
export class FilesModule {}
