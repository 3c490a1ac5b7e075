import { Body, Controller, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiText } from 'src/common/http/api-responses';
import { DirectoryListingDto, FileEntryDto, PullStartedDto, SignedUrlDto } from 'src/modules/files/dto/file-response.dto';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { STREAMS_BODY } from 'src/common/http/fastify';
import type { HttpReply, HttpRequest } from 'src/common/http/http';
import {
  ChmodFilesDto,
  CopyFileDto,
  CreateFolderDto,
  DecompressFileDto,
  DirectoryQueryDto,
  FileQueryDto,
  PullFileDto,
  RenameFilesDto,
  RootFilesDto,
  WriteFileDto,
} from 'src/modules/files/dto/files.dto';
import { FilesService } from 'src/modules/files/files.service';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

/** The file manager, through the node's daemon. */
@ApiTags('client: files')
@Controller('api/client/servers/:server/files')
export class FilesController {
  constructor(private readonly service: FilesService) {}

  @Get('list')
  @ServerRoute('server.files.read')
  @ApiData(DirectoryListingDto)
  async list(@CurrentServer() access: ServerAccess, @Query() query: DirectoryQueryDto): Promise<{ data: DirectoryListingDto }> {
    return { data: await this.service.list(access, query.directory) };
  }

  @Get('contents')
  @ServerRoute('server.files.read')
  @ApiText('text/plain', "The file's text (400 FILE_TOO_LARGE_TO_VIEW above FILE_EDIT_MAX_MB: download it instead)")
  async contents(@CurrentServer() access: ServerAccess, @Query() query: FileQueryDto, @Res({ passthrough: true }) res: HttpReply): Promise<string> {
    const text = await this.service.contents(access, query.file);
    res.type('text/plain; charset=utf-8');
    return text;
  }

  @Get('download')
  @ServerRoute('server.files.read')
  @ApiData(SignedUrlDto)
  download(@CurrentServer() access: ServerAccess, @CurrentAuth() auth: AuthContext, @Query() query: FileQueryDto): { data: SignedUrlDto } {
    return { data: this.service.downloadUrl(access, auth, query.file) };
  }

  @Get('upload')
  @ServerRoute('server.files.write')
  @ApiData(SignedUrlDto)
  uploadUrl(@CurrentServer() access: ServerAccess, @CurrentAuth() auth: AuthContext): { data: SignedUrlDto } {
    return { data: this.service.uploadUrl(access, auth) };
  }

  /** Multipart field `files`, streamed to the daemon; capped at the node's upload size (413). */
  @Post('upload')
  @RouteConfig(STREAMS_BODY)
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async upload(
    @CurrentServer() access: ServerAccess,
    @CurrentAuth() auth: AuthContext,
    @Query() query: DirectoryQueryDto,
    @Req() req: HttpRequest,
    @CurrentActor() actor: Actor,
  ): Promise<void> {
    await this.service.upload(access, auth, query.directory, req, actor);
  }

  @Post('write')
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async write(@CurrentServer() access: ServerAccess, @Body() dto: WriteFileDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.write(access, dto.file, dto.content, actor);
  }

  @Post('copy')
  @HttpCode(200)
  @ServerRoute('server.files.write')
  @ApiData(FileEntryDto, { description: 'The copy' })
  async copy(@CurrentServer() access: ServerAccess, @Body() dto: CopyFileDto, @CurrentActor() actor: Actor): Promise<{ data: FileEntryDto }> {
    return { data: await this.service.copy(access, dto.location, actor) };
  }

  @Put('rename')
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async rename(@CurrentServer() access: ServerAccess, @Body() dto: RenameFilesDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.rename(access, dto.root, dto.files, actor);
  }

  @Post('delete')
  @HttpCode(204)
  @ServerRoute('server.files.delete')
  async delete(@CurrentServer() access: ServerAccess, @Body() dto: RootFilesDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(access, dto.root, dto.files, actor);
  }

  @Post('create-folder')
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async createFolder(@CurrentServer() access: ServerAccess, @Body() dto: CreateFolderDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.createFolder(access, dto.root, dto.name, actor);
  }

  @Post('chmod')
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async chmod(@CurrentServer() access: ServerAccess, @Body() dto: ChmodFilesDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.chmod(access, dto.root, dto.files, actor);
  }

  @Post('compress')
  @HttpCode(200)
  @ServerRoute('server.files.write')
  @ApiData(FileEntryDto, { description: 'The new archive' })
  async compress(@CurrentServer() access: ServerAccess, @Body() dto: RootFilesDto, @CurrentActor() actor: Actor): Promise<{ data: FileEntryDto }> {
    return { data: await this.service.compress(access, dto.root, dto.files, actor) };
  }

  @Post('decompress')
  @HttpCode(204)
  @ServerRoute('server.files.write')
  async decompress(@CurrentServer() access: ServerAccess, @Body() dto: DecompressFileDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.decompress(access, dto.root, dto.file, actor);
  }

  @Post('pull')
  @HttpCode(202)
  @ServerRoute('server.files.write')
  @ApiData(PullStartedDto, { status: 202, description: 'The node downloads in the background' })
  async pull(@CurrentServer() access: ServerAccess, @Body() dto: PullFileDto, @CurrentActor() actor: Actor): Promise<{ data: PullStartedDto }> {
    return { data: await this.service.pull(access, dto.url, dto.directory, actor) };
  }
}
