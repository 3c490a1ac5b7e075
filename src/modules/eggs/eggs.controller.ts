import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiFreeForm, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import type { HttpReply } from 'src/common/http/http';
import { Paginated, toPage } from 'src/common/http/pagination';
import { uuidParam } from 'src/common/validation/uuid-param';
import { CreateEggDto, ImportEggUrlDto, UpdateEggDto } from 'src/modules/eggs/dto/egg.dto';
import { EggListItemDto, EggResponseDto } from 'src/modules/eggs/dto/egg-response.dto';
import { EggListQueryDto, importTarget } from 'src/modules/eggs/dto/egg-import.dto';
import { EggGalleryEntryDto, EggUpdatePreviewDto } from 'src/modules/eggs/dto/egg-gallery.dto';
import { EggGalleryService } from 'src/modules/eggs/egg-gallery.service';
import { EggTransferService } from 'src/modules/eggs/egg-transfer.service';
import { EggUpdateService } from 'src/modules/eggs/egg-update.service';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsService } from 'src/modules/eggs/eggs.service';

const eggId = uuidParam(EggError.NOT_FOUND);

@ApiTags('admin: eggs')
@Controller('api/admin/eggs')
export class EggsController {
  constructor(
    private readonly eggs: EggsService,
    private readonly transfer: EggTransferService,
    private readonly gallery: EggGalleryService,
    private readonly updates: EggUpdateService,
  ) {}

  @Get()
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiPage(EggListItemDto)
  list(@Query() query: EggListQueryDto): Promise<Paginated<EggListItemDto>> {
    return this.eggs.list(query.nestId, toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggResponseDto, { status: 201 })
  async create(@Body() dto: CreateEggDto, @CurrentActor() actor: Actor): Promise<{ data: EggResponseDto }> {
    return { data: await this.eggs.create(dto, actor) };
  }

  /** `{nestId, egg: <PTDL document>}`, or the document itself with `?nestId=`. */
  @Post('import')
  @ApiBody({ description: 'A PTDL_v1/PTDL_v2 egg document, or {nestId, egg}', schema: { type: 'object', additionalProperties: true } })
  @ApiQuery({ name: 'nestId', required: false, type: String })
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggResponseDto, { status: 201 })
  async import(@Body() body: unknown, @Query('nestId') nestId: unknown, @CurrentActor() actor: Actor): Promise<{ data: EggResponseDto }> {
    const target = importTarget(body, nestId);
    return { data: await this.transfer.import(target.nestId, target.document, actor) };
  }

  @Post('import-url')
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggResponseDto, { status: 201 })
  async importFromUrl(@Body() dto: ImportEggUrlDto, @CurrentActor() actor: Actor): Promise<{ data: EggResponseDto }> {
    return { data: await this.transfer.importFromUrl(dto.nestId, dto.url, actor) };
  }

  /** The eggs of EGG_GALLERY_URLS, described from their documents (fetched by the panel, cached). */
  @Get('gallery')
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiData(EggGalleryEntryDto, { isArray: true })
  async galleryList(): Promise<{ data: EggGalleryEntryDto[] }> {
    return { data: await this.gallery.list() };
  }

  @Get(':egg')
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiData(EggResponseDto)
  async get(@Param('egg', eggId) id: string): Promise<{ data: EggResponseDto }> {
    return { data: await this.eggs.getResponse(id) };
  }

  @Patch(':egg')
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggResponseDto)
  async update(@Param('egg', eggId) id: string, @Body() dto: UpdateEggDto, @CurrentActor() actor: Actor): Promise<{ data: EggResponseDto }> {
    return { data: await this.eggs.update(id, dto, actor) };
  }

  @Delete(':egg')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  async delete(@Param('egg', eggId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.eggs.delete(id, actor);
  }

  /** The PTDL_v2 document as a file download. */
  @Get(':egg/export')
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiFreeForm('The egg as a PTDL_v2 file (an attachment), as Pterodactyl exports it')
  async export(@Param('egg', eggId) id: string, @Res() res: HttpReply): Promise<void> {
    const { text, fileName } = await this.transfer.export(id);
    // The file name is a slug of ASCII letters, digits and dashes, so it needs no quoting rules.
    res.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(text);
  }

  /** What updating the egg from its update URL would change, field by field; changes nothing. */
  @Get(':egg/update-preview')
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiData(EggUpdatePreviewDto)
  async updatePreview(@Param('egg', eggId) id: string): Promise<{ data: EggUpdatePreviewDto }> {
    return { data: await this.updates.preview(id) };
  }

  /** Fetches the egg's update URL again and applies the document (audited as egg.updated_from_url). */
  @Post(':egg/update')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggResponseDto)
  async updateFromUrl(@Param('egg', eggId) id: string, @CurrentActor() actor: Actor): Promise<{ data: EggResponseDto }> {
    return { data: await this.updates.apply(id, actor) };
  }
}
