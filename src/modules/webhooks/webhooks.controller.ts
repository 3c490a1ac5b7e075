import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { Paginated, PaginationQueryDto, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from 'src/modules/webhooks/dto/webhook.dto';
import { WebhookError } from 'src/modules/webhooks/webhooks.errors';
import { WebhookScope, WebhooksService } from 'src/modules/webhooks/webhooks.service';

const webhookId = new DecimalIdPipe(WebhookError.NOT_FOUND);
const ADMIN: WebhookScope = { server: null };

/** An administrator's webhooks: every event of the panel (docs/webhooks.md). */
@ApiTags('admin: webhooks')
@Controller('api/admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly service: WebhooksService) {}

  @Get()
  @Authenticated({ admin: AdminScope.WEBHOOKS_READ })
  @ApiPage(WebhookDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<WebhookDto>> {
    return this.service.list(ADMIN, toPage(query));
  }

  /** The answer holds the secret when the panel made it: this once. */
  @Post()
  @Authenticated({ admin: AdminScope.WEBHOOKS_WRITE })
  @ApiData(WebhookWithSecretDto, { status: 201 })
  async create(@Body() dto: CreateWebhookDto, @CurrentActor() actor: Actor): Promise<{ data: WebhookWithSecretDto }> {
    return { data: await this.service.create(ADMIN, dto, actor) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.WEBHOOKS_READ })
  @ApiData(WebhookDto)
  async get(@Param('id', webhookId) id: string): Promise<{ data: WebhookDto }> {
    return { data: await this.service.get(ADMIN, id) };
  }

  /** With `rotateSecret`, the answer holds the new secret: this once. */
  @Patch(':id')
  @Authenticated({ admin: AdminScope.WEBHOOKS_WRITE })
  @ApiData(WebhookWithSecretDto)
  async update(@Param('id', webhookId) id: string, @Body() dto: UpdateWebhookDto, @CurrentActor() actor: Actor): Promise<{ data: WebhookWithSecretDto }> {
    return { data: await this.service.update(ADMIN, id, dto, actor) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.WEBHOOKS_WRITE })
  async delete(@Param('id', webhookId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(ADMIN, id, actor);
  }

  /** Newest first, each with its attempts. */
  @Get(':id/deliveries')
  @Authenticated({ admin: AdminScope.WEBHOOKS_READ })
  @ApiPage(WebhookDeliveryDto)
  deliveries(@Param('id', webhookId) id: string, @Query() query: PaginationQueryDto): Promise<Paginated<WebhookDeliveryDto>> {
    return this.service.deliveries(ADMIN, id, toPage(query));
  }

  /** Sends a `webhook.test` event now and answers the delivery with its one attempt. */
  @Post(':id/test')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.WEBHOOKS_WRITE })
  @ApiData(WebhookDeliveryDto)
  async test(@Param('id', webhookId) id: string, @CurrentActor() actor: Actor): Promise<{ data: WebhookDeliveryDto }> {
    return { data: await this.service.test(ADMIN, id, actor) };
  }
}

const scopeOf = (access: ServerAccess): WebhookScope => ({
  server: { id: access.server.id, uuid: access.server.uuid, name: access.server.name, nodeId: access.server.nodeId },
});

/** A server's own webhooks: its events only (permission `server.webhook`; docs/webhooks.md). */
@ApiTags('client: servers')
@Controller('api/client/servers')
export class ServerWebhooksController {
  constructor(private readonly service: WebhooksService) {}

  @Get(':server/webhooks')
  @ServerRoute('server.webhook')
  @ApiPage(WebhookDto)
  list(@CurrentServer() access: ServerAccess, @Query() query: PaginationQueryDto): Promise<Paginated<WebhookDto>> {
    return this.service.list(scopeOf(access), toPage(query));
  }

  @Post(':server/webhooks')
  @ServerRoute('server.webhook')
  @ApiData(WebhookWithSecretDto, { status: 201 })
  async create(@CurrentServer() access: ServerAccess, @Body() dto: CreateWebhookDto, @CurrentActor() actor: Actor): Promise<{ data: WebhookWithSecretDto }> {
    return { data: await this.service.create(scopeOf(access), dto, actor) };
  }

  @Get(':server/webhooks/:id')
  @ServerRoute('server.webhook')
  @ApiData(WebhookDto)
  async get(@CurrentServer() access: ServerAccess, @Param('id', webhookId) id: string): Promise<{ data: WebhookDto }> {
    return { data: await this.service.get(scopeOf(access), id) };
  }

  @Patch(':server/webhooks/:id')
  @ServerRoute('server.webhook')
  @ApiData(WebhookWithSecretDto)
  async update(
    @CurrentServer() access: ServerAccess,
    @Param('id', webhookId) id: string,
    @Body() dto: UpdateWebhookDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: WebhookWithSecretDto }> {
    return { data: await this.service.update(scopeOf(access), id, dto, actor) };
  }

  @Delete(':server/webhooks/:id')
  @HttpCode(204)
  @ServerRoute('server.webhook')
  async delete(@CurrentServer() access: ServerAccess, @Param('id', webhookId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(scopeOf(access), id, actor);
  }

  @Get(':server/webhooks/:id/deliveries')
  @ServerRoute('server.webhook')
  @ApiPage(WebhookDeliveryDto)
  deliveries(@CurrentServer() access: ServerAccess, @Param('id', webhookId) id: string, @Query() query: PaginationQueryDto): Promise<Paginated<WebhookDeliveryDto>> {
    return this.service.deliveries(scopeOf(access), id, toPage(query));
  }

  @Post(':server/webhooks/:id/test')
  @HttpCode(200)
  @ServerRoute('server.webhook')
  @ApiData(WebhookDeliveryDto)
  async test(@CurrentServer() access: ServerAccess, @Param('id', webhookId) id: string, @CurrentActor() actor: Actor): Promise<{ data: WebhookDeliveryDto }> {
    return { data: await this.service.test(scopeOf(access), id, actor) };
  }
}
