import { Controller, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { JSON_BODY_LIMIT, STREAMS_BODY } from 'src/common/http/fastify';
import type { HttpReply, HttpRequest } from 'src/common/http/http';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { FilesService } from 'src/modules/files/files.service';
import { ClientActor, ClientAuth, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { fileItem } from 'src/modules/pterodactyl/client/client-transformers';
import { FractalItem, FractalList, list } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';
import { ChmodBody, CopyBody, CreateFolderBody, DecompressBody, FilesBody, PullBody, RenameBody } from 'src/modules/pterodactyl/client/dto/files.dto';

const signedUrl = (url: string) => ({ object: 'signed_url', attributes: { url } });

const required = (value: unknown, field: string): string => {
  if (typeof value !== 'string' || value === '') {
    throw pterodactylValidationError([{ field, rule: 'required', detail: `The ${field} field is required.` }]);
  }
  return value;
};

/** The raw request body (Pterodactyl's `files/write` takes the file's content as the body, any content type), capped as JSON bodies are. */
const rawBody = async (req: HttpRequest): Promise<string> => {
  if (typeof req.body === 'string') {
    return req.body;
  }
  if (req.body !== undefined && req.body !== null) {
    // A JSON content type was parsed already: the content is what was sent.
    return JSON.stringify(req.body);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_BODY_LIMIT) {
      throw new AppException(CommonError.PAYLOAD_TOO_LARGE);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** `/pterodactyl/api/client/servers/{server}/files` (FileController, FileUploadController), over Hatchery's FilesService and its permissions. */
@PterodactylController()
@Controller('pterodactyl/api/client/servers/:server/files')
export class PterodactylClientFilesController {
  constructor(private readonly files: FilesService) {}

  @Get('list')
  @ClientServerRoute('server.files.read')
  async list(@CurrentServer() access: ServerAccess, @Query('directory') directory: unknown): Promise<FractalList> {
    const listing = await this.files.list(access, typeof directory === 'string' ? directory : undefined);
    return list(listing.entries.map((e) => fileItem(e)));
  }

  @Get('contents')
  @ClientServerRoute('server.files.read')
  async contents(@CurrentServer() access: ServerAccess, @Query('file') file: unknown, @Res({ passthrough: true }) res: HttpReply): Promise<string> {
    const text = await this.files.contents(access, required(file, 'file'));
    res.type('text/plain');
    return text;
  }

  @Get('download')
  @ClientServerRoute('server.files.read')
  download(@CurrentServer() access: ServerAccess, @ClientAuth() auth: AuthContext, @Query('file') file: unknown): { object: string; attributes: { url: string } } {
    return signedUrl(this.files.downloadUrl(access, auth, required(file, 'file')).url);
  }

  @Get('upload')
  @ClientServerRoute('server.files.write')
  upload(@CurrentServer() access: ServerAccess, @ClientAuth() auth: AuthContext): { object: string; attributes: { url: string } } {
    return signedUrl(this.files.uploadUrl(access, auth).url);
  }

  @Post('write')
  @RouteConfig(STREAMS_BODY)
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async write(@CurrentServer() access: ServerAccess, @Query('file') file: unknown, @Req() req: HttpRequest, @ClientActor() actor: Actor): Promise<void> {
    const path = required(file, 'file');
    await this.files.write(access, path, await rawBody(req), actor);
  }

  @Put('rename')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async rename(@CurrentServer() access: ServerAccess, @PterodactylBody(RenameBody) body: RenameBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.rename(access, body.root, body.files, actor);
  }

  @Post('copy')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async copy(@CurrentServer() access: ServerAccess, @PterodactylBody(CopyBody) body: CopyBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.copy(access, body.location, actor);
  }

  @Post('compress')
  @HttpCode(200)
  @ClientServerRoute('server.files.write')
  async compress(@CurrentServer() access: ServerAccess, @PterodactylBody(FilesBody) body: FilesBody, @ClientActor() actor: Actor): Promise<FractalItem> {
    return fileItem(await this.files.compress(access, body.root, body.files, actor), 'application/tar+gzip');
  }

  @Post('decompress')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async decompress(@CurrentServer() access: ServerAccess, @PterodactylBody(DecompressBody) body: DecompressBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.decompress(access, body.root, body.file, actor);
  }

  @Post('delete')
  @HttpCode(204)
  @ClientServerRoute('server.files.delete')
  async delete(@CurrentServer() access: ServerAccess, @PterodactylBody(FilesBody) body: FilesBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.delete(access, body.root, body.files, actor);
  }

  @Post('create-folder')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async createFolder(@CurrentServer() access: ServerAccess, @PterodactylBody(CreateFolderBody) body: CreateFolderBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.createFolder(access, body.root, body.name, actor);
  }

  @Post('chmod')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async chmod(@CurrentServer() access: ServerAccess, @PterodactylBody(ChmodBody) body: ChmodBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.chmod(
      access,
      body.root,
      body.files.map((f) => ({ file: f.file, mode: String(f.mode) })),
      actor,
    );
  }

  @Post('pull')
  @HttpCode(204)
  @ClientServerRoute('server.files.write')
  async pull(@CurrentServer() access: ServerAccess, @PterodactylBody(PullBody) body: PullBody, @ClientActor() actor: Actor): Promise<void> {
    await this.files.pull(access, body.url, body.directory, actor);
  }
}
