import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDataWithMeta } from 'src/common/http/api-responses';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';
import { CreateSubuserDto, CreateSubuserMetaDto, SubuserResponseDto, UpdateSubuserDto } from 'src/modules/servers/subusers/dto/subuser.dto';
import { SubusersService } from 'src/modules/servers/subusers/subusers.service';

/** Subusers of a server; `{user}` is the subuser's user id. */
@ApiTags('client: subusers')
@Controller('api/client/servers/:server/users')
export class SubusersController {
  constructor(private readonly service: SubusersService) {}

  @Get()
  @ServerRoute('server.subuser.read')
  @ApiData(SubuserResponseDto, { isArray: true })
  async list(@CurrentServer() access: ServerAccess): Promise<{ data: SubuserResponseDto[] }> {
    return { data: await this.service.list(access) };
  }

  /** `meta.email` tells whether the invitation (or, to an existing account, the notice) was e-mailed, and if not why. */
  @Post()
  @ServerRoute('server.subuser.create')
  @ApiDataWithMeta(SubuserResponseDto, CreateSubuserMetaDto, { status: 201 })
  async create(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Body() dto: CreateSubuserDto,
  ): Promise<{ data: SubuserResponseDto; meta: CreateSubuserMetaDto }> {
    const { subuser, email } = await this.service.create(access, actor, dto.email, dto.permissions);
    return { data: subuser, meta: { email } };
  }

  @Get(':user')
  @ServerRoute('server.subuser.read')
  @ApiData(SubuserResponseDto)
  async view(@CurrentServer() access: ServerAccess, @Param('user') user: string): Promise<{ data: SubuserResponseDto }> {
    return { data: await this.service.view(access, user) };
  }

  @Post(':user')
  @HttpCode(200)
  @ServerRoute('server.subuser.update')
  @ApiData(SubuserResponseDto)
  async update(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Param('user') user: string,
    @Body() dto: UpdateSubuserDto,
  ): Promise<{ data: SubuserResponseDto }> {
    return { data: await this.service.update(access, actor, user, dto.permissions) };
  }

  @Delete(':user')
  @HttpCode(204)
  @ServerRoute('server.subuser.delete')
  async remove(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Param('user') user: string): Promise<void> {
    await this.service.remove(access, actor, user);
  }
}
