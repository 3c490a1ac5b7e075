import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { DaemonSystemInfo } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';
import { NodesService } from 'src/modules/nodes/nodes.service';

@ApiTags('admin: nodes')
@Controller('api/admin/daemon')
export class DaemonSystemController {
  constructor(
    private readonly nodes: NodesService,
    private readonly repo: NodesRepository,
  ) {}

  /**
   * A daemon's system information. Without `node`: the only node; with several, 400 asking for
   * one; with none, 503 asking to add one.
   */
  @Get('system')
  @ApiQuery({ name: 'node', required: false })
  @Authenticated({ admin: AdminScope.NODES_READ })
  async system(@Query('node') node: unknown): Promise<{ data: DaemonSystemInfo }> {
    if (node !== undefined) {
      if (typeof node !== 'string' || !/^[1-9]\d{0,17}$/.test(node)) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      return { data: await this.nodes.systemInformation(node) };
    }
    const nodes = await this.repo.findUpToTwoNodes();
    if (nodes.length === 0) {
      throw new AppException(DaemonError.NO_NODE);
    }
    if (nodes.length > 1) {
      throw new AppException(DaemonError.NODE_REQUIRED);
    }
    return { data: await this.nodes.systemInformation(nodes[0].id) };
  }
}
