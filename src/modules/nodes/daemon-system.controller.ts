import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { DaemonSystemInfo } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodesService } from 'src/modules/nodes/nodes.service';

@ApiTags('admin: nodes')
@Controller('api/admin/daemon')
export class DaemonSystemController {
  constructor(private readonly nodes: NodesService) {}

  /** A daemon's system information: of `node`, or of the only node (NodesService.systemInformationOf). */
  @Get('system')
  @ApiQuery({ name: 'node', required: false })
  @Authenticated({ admin: AdminScope.NODES_READ })
  async system(@Query('node') node: unknown): Promise<{ data: DaemonSystemInfo }> {
    return { data: await this.nodes.systemInformationOf(node) };
  }
}
