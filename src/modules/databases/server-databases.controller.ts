import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDataWithMeta, ApiPage } from 'src/common/http/api-responses';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import {
  CreatedServerDatabaseDto,
  CreateServerDatabaseDto,
  DatabasePasswordMetaDto,
  ServerDatabaseResponseDto,
} from 'src/modules/databases/dto/server-database.dto';
import { DatabaseList, ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

const databaseId = new DecimalIdPipe(DatabaseError.NOT_FOUND);

/** A server's databases. Passwords appear only in `meta` of create and rotate-password. */
@ApiTags('client: databases')
@Controller('api/client/servers/:server/databases')
export class ServerDatabasesController {
  constructor(private readonly service: ServerDatabasesService) {}

  /** `data` (2.5) and `hostAvailable`: whether a host could take a new database. */
  @Get()
  @ServerRoute('server.database.read')
  @ApiPage(ServerDatabaseResponseDto, { extra: { hostAvailable: { type: 'boolean', description: 'Whether a host could take a new database' } } })
  list(@CurrentServer() access: ServerAccess, @Query() query: PaginationQueryDto): Promise<DatabaseList> {
    return this.service.list(access, toPage(query));
  }

  @Post()
  @ServerRoute('server.database.create')
  @ApiDataWithMeta(CreatedServerDatabaseDto, DatabasePasswordMetaDto, { status: 201 })
  async create(
    @CurrentServer() access: ServerAccess,
    @Body() dto: CreateServerDatabaseDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: CreatedServerDatabaseDto; meta: DatabasePasswordMetaDto }> {
    const { data, meta } = await this.service.create(access, dto, actor);
    return { data, meta };
  }

  @Post(':database/rotate-password')
  @HttpCode(200)
  @ServerRoute('server.database.update')
  @ApiDataWithMeta(ServerDatabaseResponseDto, DatabasePasswordMetaDto)
  rotatePassword(
    @CurrentServer() access: ServerAccess,
    @Param('database', databaseId) id: string,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: ServerDatabaseResponseDto; meta: DatabasePasswordMetaDto }> {
    return this.service.rotatePassword(access, id, actor);
  }

  @Delete(':database')
  @HttpCode(204)
  @ServerRoute('server.database.delete')
  async delete(@CurrentServer() access: ServerAccess, @Param('database', databaseId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(access, id, actor);
  }
}
