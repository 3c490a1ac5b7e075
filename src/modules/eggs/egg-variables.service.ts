import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService, changedFields, pick } from 'src/modules/audit/audit.service';
import { CreateEggVariableDto, UpdateEggVariableDto } from 'src/modules/eggs/dto/egg-variable.dto';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';

const VARIABLE_FIELDS = ['name', 'description', 'envVariable', 'defaultValue', 'userViewable', 'userEditable', 'rules'] as const;

@Injectable()
export class EggVariablesService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(eggId: string): Promise<EggVariableEntity[]> {
    await this.requireEgg(eggId);
    return this.repo.findVariables(eggId);
  }

  create(eggId: string, dto: CreateEggVariableDto, actor: Actor): Promise<EggVariableEntity> {
    return this.repo.transaction(async (manager) => {
      await this.requireEgg(eggId, manager);
      await this.repo.lockEgg(eggId, manager);
      await this.ensureEnvFree(eggId, dto.envVariable, undefined, manager);
      const variable = await this.repo.saveVariable(
        {
          eggId,
          position: await this.repo.nextVariablePosition(eggId, manager),
          name: dto.name,
          description: dto.description ?? '',
          envVariable: dto.envVariable,
          defaultValue: dto.defaultValue ?? '',
          userViewable: dto.userViewable ?? false,
          userEditable: dto.userEditable ?? false,
          rules: dto.rules ?? '',
        },
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'egg.variable.created',
        targetType: 'egg_variable',
        targetId: variable.id,
        changes: { after: { eggId, ...pick(variable, VARIABLE_FIELDS) } },
      });
      return variable;
    });
  }

  update(eggId: string, id: string, dto: UpdateEggVariableDto, actor: Actor): Promise<EggVariableEntity> {
    return this.repo.transaction(async (manager) => {
      await this.repo.lockEgg(eggId, manager);
      const before = await this.requireVariable(eggId, id, manager);
      if (dto.envVariable !== undefined) {
        await this.ensureEnvFree(eggId, dto.envVariable, id, manager);
      }
      const after = await this.repo.saveVariable({ ...before, ...dto }, manager);
      const changes = changedFields(before, after, VARIABLE_FIELDS);
      if (Object.keys(changes.after).length > 0) {
        await this.audit.record(manager, actor, {
          action: 'egg.variable.updated',
          targetType: 'egg_variable',
          targetId: id,
          changes: { before: { eggId, ...changes.before }, after: { eggId, ...changes.after } },
        });
      }
      return after;
    });
  }

  delete(eggId: string, id: string, actor: Actor): Promise<void> {
    return this.repo.transaction(async (manager) => {
      await this.repo.lockEgg(eggId, manager);
      const variable = await this.requireVariable(eggId, id, manager);
      await this.repo.deleteVariable(id, manager);
      await this.audit.record(manager, actor, {
        action: 'egg.variable.deleted',
        targetType: 'egg_variable',
        targetId: id,
        changes: { before: { eggId, ...pick(variable, VARIABLE_FIELDS) } },
      });
    });
  }

  private async requireEgg(eggId: string, manager?: EntityManager): Promise<void> {
    if (!(await this.repo.findEgg(eggId, manager))) {
      throw new AppException(EggError.NOT_FOUND);
    }
  }

  private async requireVariable(eggId: string, id: string, manager: EntityManager): Promise<EggVariableEntity> {
    await this.requireEgg(eggId, manager);
    const variable = await this.repo.findVariable(eggId, id, manager);
    if (!variable) {
      throw new AppException(EggError.VARIABLE_NOT_FOUND);
    }
    return variable;
  }

  /** Checked up front (clear 409, transaction left usable); the unique index still guards races. */
  private async ensureEnvFree(eggId: string, env: string, exceptId: string | undefined, manager: EntityManager): Promise<void> {
    const clash = (await this.repo.findVariables(eggId, manager)).find((v) => v.envVariable === env && v.id !== exceptId);
    if (clash) {
      throw new AppException(EggError.VARIABLE_ENV_TAKEN);
    }
  }
}
