import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import type { AuthContext } from 'src/common/auth/auth-context';
import { AuthError } from 'src/common/auth/auth.errors';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { AppException } from 'src/common/errors/app.exception';
import type { HttpReply } from 'src/common/http/http';
import { nodeIdPipe } from 'src/modules/nodes/nodes.controller';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';

@ApiTags('admin: nodes')
@Controller('api/admin/daemon/nodes')
export class DaemonConfigurationController {
  constructor(
    private readonly nodes: NodesService,
    private readonly roles: AdminRoles,
  ) {}

  /**
   * The node's config.yml (docs/wings.md#configuration). It holds the daemon token, so a browser
   * session is not enough: only an API key with nodes.read may read it, and only when its owner may
   * change the node (the token commands every server on it; a role that only reads nodes does not).
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
  async configuration(@Param('id', nodeIdPipe) id: string, @Query('format') format: unknown, @CurrentAuth() auth: AuthContext, @Res() res: HttpReply): Promise<void> {
    // A node that does not exist is a 404 for every caller, as on the other routes of a node; one the
    // key's owner may only read is refused (its file holds the daemon token).
    const file = await this.nodes.configurationFile(id, format, () => {
      if (!this.roles.mayChangeNode(auth.user, id)) {
        throw new AppException(AuthError.ROLE_FORBIDDEN);
      }
    });
    res.header('cache-control', 'no-store');
    if ('yaml' in file) {
      res.type('text/yaml; charset=utf-8').send(file.yaml);
      return;
    }
    res.send({ data: file.json });
  }
}
