import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import type { HttpReply } from 'src/common/http/http';
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
  @NodeParamScoped()
  @ApiResponse({
    status: 200,
    description: "Wings' config.yml for the node: `{data: {...}}` as JSON, or the YAML file with ?format=yaml (docs/wings.md#configuration)",
    content: {
      'application/json': {
        schema: { type: 'object', required: ['data'], properties: { data: { type: 'object', additionalProperties: true } } },
      },
      'text/yaml': { schema: { type: 'string' } },
    },
  })
  async configuration(@Param('id', nodeIdPipe) id: string, @Query('format') format: unknown, @Res() res: HttpReply): Promise<void> {
    const file = await this.nodes.configurationFile(id, format);
    res.header('cache-control', 'no-store');
    if ('yaml' in file) {
      res.type('text/yaml; charset=utf-8').send(file.yaml);
      return;
    }
    res.send({ data: file.json });
  }
}
