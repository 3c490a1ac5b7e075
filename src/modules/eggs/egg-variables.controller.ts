import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { uuidParam } from 'src/common/validation/uuid-param';
import { CreateEggVariableDto, UpdateEggVariableDto } from 'src/modules/eggs/dto/egg-variable.dto';
import { EggVariableResponseDto, toEggVariableResponse } from 'src/modules/eggs/dto/egg-response.dto';
import { EggVariablesService } from 'src/modules/eggs/egg-variables.service';
import { EggError } from 'src/modules/eggs/eggs.errors';

const eggId = uuidParam(EggError.NOT_FOUND);
const variableId = uuidParam(EggError.VARIABLE_NOT_FOUND);

@ApiTags('admin: eggs')
@Controller('api/admin/eggs/:egg/variables')
export class EggVariablesController {
  constructor(private readonly service: EggVariablesService) {}

  @Get()
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiData(EggVariableResponseDto, { isArray: true })
  async list(@Param('egg', eggId) egg: string): Promise<{ data: EggVariableResponseDto[] }> {
    return { data: (await this.service.list(egg)).map(toEggVariableResponse) };
  }

  @Post()
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggVariableResponseDto, { status: 201 })
  async create(
    @Param('egg', eggId) egg: string,
    @Body() dto: CreateEggVariableDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: EggVariableResponseDto }> {
    return { data: toEggVariableResponse(await this.service.create(egg, dto, actor)) };
  }

  @Patch(':variable')
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(EggVariableResponseDto)
  async update(
    @Param('egg', eggId) egg: string,
    @Param('variable', variableId) id: string,
    @Body() dto: UpdateEggVariableDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: EggVariableResponseDto }> {
    return { data: toEggVariableResponse(await this.service.update(egg, id, dto, actor)) };
  }

  @Delete(':variable')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  async delete(@Param('egg', eggId) egg: string, @Param('variable', variableId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(egg, id, actor);
  }
}
