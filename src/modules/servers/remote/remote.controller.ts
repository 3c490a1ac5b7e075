import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiFreeForm } from 'src/common/http/api-responses';
import type { HttpReply, HttpRequest } from 'src/common/http/http';
import { uuidParam } from 'src/common/validation/uuid-param';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { CallingNode, DaemonRoute } from 'src/modules/servers/remote/daemon-token.guard';
import { ActivityBatchDto, InstallScriptDto, InstallStatusDto, RemoteServerListQueryDto, SftpAuthAnswerDto, SftpAuthDto } from 'src/modules/servers/remote/remote.dto';
import { bootPageSize, RemoteService } from 'src/modules/servers/remote/remote.service';
import { SftpAuthService } from 'src/modules/servers/remote/sftp-auth.service';
import { DaemonServerConfiguration } from 'src/modules/servers/server-config.service';
import { ServerError } from 'src/modules/servers/servers.errors';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';

const serverUuid = uuidParam(ServerError.NOT_FOUND);

/** What Wings calls on the panel (docs/wings.md#callbacks); every lookup is scoped to the calling node. */
@ApiTags('remote (daemon)')
@Controller('api/remote')
@DaemonRoute()
export class RemoteController {
  constructor(
    private readonly service: RemoteService,
    private readonly sftp: SftpAuthService,
    private readonly transfers: TransfersService,
  ) {}

  @Get('servers')
  @ApiFreeForm('A page of the node\'s servers for its boot: {data: [{uuid, settings, process_configuration}], links, meta} (docs/wings.md)')
  servers(@CallingNode() node: NodeEntity, @Query() query: RemoteServerListQueryDto) {
    return this.service.list(node, Math.max(1, query.page ?? 1), bootPageSize(query.per_page));
  }

  @Post('servers/reset')
  @HttpCode(204)
  async reset(@CallingNode() node: NodeEntity): Promise<void> {
    await this.service.reset(node);
  }

  @Get('servers/:uuid')
  @ApiFreeForm("The server's configuration as Wings reads it: {settings, process_configuration} (docs/wings.md)")
  configuration(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<DaemonServerConfiguration> {
    return this.service.configuration(node, uuid);
  }

  @Get('servers/:uuid/install')
  @ApiResponse({ status: 200, type: InstallScriptDto })
  installScript(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<InstallScriptDto> {
    return this.service.installScript(node, uuid);
  }

  @Post('servers/:uuid/install')
  @HttpCode(204)
  async installStatus(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string, @Body() dto: InstallStatusDto): Promise<void> {
    await this.service.installStatus(node, uuid, dto.successful, dto.reinstall ?? false);
  }

  /** The target node's report that the transfer worked (Wings posts; Pterodactyl's panel takes GET too). */
  @Post('servers/:uuid/transfer/success')
  @HttpCode(204)
  async transferSuccess(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<void> {
    await this.transfers.reportSuccess(node, uuid);
  }

  @Get('servers/:uuid/transfer/success')
  @HttpCode(204)
  async transferSuccessByGet(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<void> {
    await this.transfers.reportSuccess(node, uuid);
  }

  /** Either node's report that the transfer failed: the server stays on its source. */
  @Post('servers/:uuid/transfer/failure')
  @HttpCode(204)
  async transferFailure(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<void> {
    await this.transfers.reportFailure(node, uuid);
  }

  @Get('servers/:uuid/transfer/failure')
  @HttpCode(204)
  async transferFailureByGet(@CallingNode() node: NodeEntity, @Param('uuid', serverUuid) uuid: string): Promise<void> {
    await this.transfers.reportFailure(node, uuid);
  }

  @Post('sftp/auth')
  @HttpCode(200)
  @ApiResponse({ status: 200, type: SftpAuthAnswerDto })
  sftpAuth(@CallingNode() node: NodeEntity, @Body() dto: SftpAuthDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<SftpAuthAnswerDto> {
    return this.sftp.authenticate(node, dto, req.ip, res);
  }

  @Post('activity')
  @HttpCode(204)
  async activity(@CallingNode() node: NodeEntity, @Body() dto: ActivityBatchDto): Promise<void> {
    await this.service.recordActivity(node, dto.data);
  }
}
