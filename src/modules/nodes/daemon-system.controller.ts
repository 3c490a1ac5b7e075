import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { DaemonSystemInfoDto } from 'src/modules/nodes/dto/node.dto';
import { NodesService } from 'src/modules/nodes/nodes.service';

@ApiTags('admin: nodes')
@Controller('api/admin/daemon')
export class DaemonSystemController {
  constructor(private readonly nodes: NodesService) {}

  /** A daemon's system information: of `node`, or of the only node (NodesService.systemInformationOf). */
  @Get('system')
  @ApiQuery({ name: 'node', required: false, type: String })
  @Authenticated({ admin: AdminScope.NODES_READ })
  @ApiData(DaemonSystemInfoDto)
  async system(@Query('node') node: unknown): Promise<{ data: DaemonSystemInfoDto }> {
    return { data: await this.nodes.systemInformationOf(node) };
  }
}
