import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import type { HttpReply } from 'src/common/http/http';
import { toDaemonYaml } from 'src/modules/nodes/daemon-configuration';
import { nodeIdPipe } from 'src/modules/nodes/nodes.controller';
import { NodesService } from 'src/modules/nodes/nodes.service';

@ApiTags('admin: nodes')
@Controller('api/admin/daemon/nodes')
export class DaemonConfigurationController {
  constructor(private readonly nodes: NodesService) {}

  /**
   * The node's config.yml (docs/wings.md#configuration). It holds the daemon token, so a browser
   * session is not enough: only an API key with nodes.read may read it.
   */
  @Get(':id/configuration')
  @ApiQuery({ name: 'format', required: false, enum: ['json', 'yaml'] })
  @Authenticated({ admin: AdminScope.NODES_READ, apiKeyOnly: true })
  async configuration(@Param('id', nodeIdPipe) id: string, @Query('format') format: unknown, @Res() res: HttpReply): Promise<void> {
    if (format !== undefined && format !== 'json' && format !== 'yaml') {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'format', message: 'format must be json or yaml' }] });
    }
    const configuration = this.nodes.configurationOf(await this.nodes.get(id));
    res.header('cache-control', 'no-store');
    if (format === 'yaml') {
      res.type('text/yaml; charset=utf-8').send(toDaemonYaml(configuration));
      return;
    }
    res.send({ data: configuration });
  }
}
