import { queryPrepared } from 'src/database/prepared-query';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { isUniqueViolation, violations } from 'src/database/pg-errors';

/** Nests, eggs and egg variables: one repository, since every write touches more than one of them. */
@Injectable()
export class EggsRepository {
  constructor(@InjectRepository(EggEntity) private readonly eggs: Repository<EggEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.eggs.manager.transaction(fn);
  }

  findNest(id: string, manager: EntityManager = this.eggs.manager): Promise<NestEntity | null> {
    return manager.getRepository(NestEntity).findOneBy({ id });
  }

  countEggs(): Promise<number> {
    return this.eggs.count();
  }

  countNests(): Promise<number> {
    return this.eggs.manager.getRepository(NestEntity).count();
  }

  findNestPage(skip: number, take: number): Promise<[NestEntity[], number]> {
    return this.eggs.manager.getRepository(NestEntity).findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, skip, take });
  }

  /** Nests and eggs by the integer id Pterodactyl's clients address them by. */
  findNestByIntId(intId: number): Promise<NestEntity | null> {
    return this.eggs.manager.getRepository(NestEntity).findOneBy({ intId });
  }

  findNestPageByIntId(skip: number, take: number): Promise<[NestEntity[], number]> {
    return this.eggs.manager.getRepository(NestEntity).findAndCount({ order: { intId: 'ASC' }, skip, take });
  }

  findEggsOfNest(nestId: string): Promise<EggEntity[]> {
    return this.eggs.find({ where: { nestId }, order: { intId: 'ASC' } });
  }

  findEggByIntId(intId: number): Promise<(EggEntity & { nest: NestEntity }) | null> {
    return this.eggs.findOne({ where: { intId }, relations: { nest: true } }) as Promise<(EggEntity & { nest: NestEntity }) | null>;
  }

  countEggsInNest(nestId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(EggEntity).countBy({ nestId });
  }

  findEgg(id: string, manager: EntityManager = this.eggs.manager): Promise<(EggEntity & { nest: NestEntity }) | null> {
    return manager.getRepository(EggEntity).findOne({ where: { id }, relations: { nest: true } }) as Promise<
      (EggEntity & { nest: NestEntity }) | null
    >;
  }

  findEggPage(nestId: string | undefined, skip: number, take: number): Promise<[(EggEntity & { nest: NestEntity })[], number]> {
    return this.eggs.findAndCount({
      where: nestId ? { nestId } : {},
      relations: { nest: true },
      order: { name: 'ASC', id: 'ASC' },
      skip,
      take,
    }) as Promise<[(EggEntity & { nest: NestEntity })[], number]>;
  }

  findEggsByIds(ids: string[]): Promise<(EggEntity & { nest: NestEntity })[]> {
    return ids.length === 0 ? Promise.resolve([]) : (this.eggs.find({ where: { id: In(ids) }, relations: { nest: true } }) as Promise<(EggEntity & { nest: NestEntity })[]>);
  }

  /** Eggs installed from these addresses (their update URL), with their nests. */
  findEggsByUpdateUrls(urls: string[]): Promise<(EggEntity & { nest: NestEntity })[]> {
    return urls.length === 0
      ? Promise.resolve([])
      : (this.eggs.find({ where: { updateUrl: In(urls) }, relations: { nest: true }, order: { name: 'ASC', id: 'ASC' } }) as Promise<(EggEntity & { nest: NestEntity })[]>);
  }

  /**
   * The variables of these eggs, in each egg's order, in one prepared query. Raw rows with the
   * entity's fields: list pages (the Pterodactyl client list, a node's boot list) read them for every
   * page, and building the query and hydrating entities cost more than running it.
   */
  findVariablesOfEggs(eggIds: string[]): Promise<EggVariableEntity[]> {
    return eggIds.length === 0
      ? Promise.resolve([])
      : queryPrepared<EggVariableEntity>(
          this.eggs.manager,
          'egg-variables-of-eggs',
          `SELECT id, int_id AS "intId", egg_id AS "eggId", position, name, description, env_variable AS "envVariable", default_value AS "defaultValue",
             user_viewable AS "userViewable", user_editable AS "userEditable", rules, created_at AS "createdAt", updated_at AS "updatedAt"
           FROM egg_variable WHERE egg_id = ANY($1::uuid[]) ORDER BY position ASC, created_at ASC`,
          [eggIds],
        );
  }

  findVariables(eggId: string, manager: EntityManager = this.eggs.manager): Promise<EggVariableEntity[]> {
    return manager.getRepository(EggVariableEntity).find({ where: { eggId }, order: { position: 'ASC', createdAt: 'ASC' } });
  }

  findVariable(eggId: string, id: string, manager: EntityManager = this.eggs.manager): Promise<EggVariableEntity | null> {
    return manager.getRepository(EggVariableEntity).findOneBy({ eggId, id });
  }

  countScriptDependents(eggId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(EggEntity).countBy({ copyScriptFrom: eggId });
  }

  /** Locks the egg row so concurrent writes to its variables (positions, deletes) line up. */
  async lockEgg(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(EggEntity).createQueryBuilder('e').setLock('pessimistic_write').where('e.id = :id', { id }).getOne();
  }

  async nextVariablePosition(eggId: string, manager: EntityManager): Promise<number> {
    const row = await manager
      .getRepository(EggVariableEntity)
      .createQueryBuilder('v')
      .select('COALESCE(MAX(v.position), -1) + 1', 'next')
      .where('v.egg_id = :eggId', { eggId })
      .getRawOne<{ next: number | string }>();
    return Number(row?.next ?? 0);
  }

  saveNest(nest: Partial<NestEntity>, manager: EntityManager): Promise<NestEntity> {
    const repo = manager.getRepository(NestEntity);
    return repo.save(repo.create(nest));
  }

  async deleteNest(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(NestEntity).delete({ id });
  }

  saveEgg(egg: Partial<EggEntity>, manager: EntityManager): Promise<EggEntity> {
    const repo = manager.getRepository(EggEntity);
    return repo.save(repo.create(egg));
  }

  /**
   * The foreign key refuses while servers use the egg (EGG_IN_USE). That answer comes before
   * EGG_HAS_DEPENDENTS, so eggs copying the script are unhooked first and the refusal for them comes
   * last; throwing rolls the caller's transaction, and so the unhooking, back.
   */
  async deleteEgg(id: string, manager: EntityManager): Promise<void> {
    const eggs = manager.getRepository(EggEntity);
    const { affected } = await eggs.update({ copyScriptFrom: id }, { copyScriptFrom: null });
    await eggs.delete({ id }).catch(violations({ FK_server_egg: EggError.IN_USE }));
    if (affected) {
      throw new AppException(EggError.HAS_DEPENDENTS);
    }
  }

  async saveVariable(variable: Partial<EggVariableEntity>, manager: EntityManager): Promise<EggVariableEntity> {
    const repo = manager.getRepository(EggVariableEntity);
    try {
      return await repo.save(repo.create(variable));
    } catch (e) {
      if (isUniqueViolation(e)) {
        throw new AppException(EggError.VARIABLE_ENV_TAKEN);
      }
      throw e;
    }
  }

  async deleteVariable(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(EggVariableEntity).delete({ id });
  }
}
