import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { isUniqueViolation } from 'src/database/pg-errors';

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

  findNestPage(skip: number, take: number): Promise<[NestEntity[], number]> {
    return this.eggs.manager.getRepository(NestEntity).findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, skip, take });
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

  findVariables(eggId: string, manager: EntityManager = this.eggs.manager): Promise<EggVariableEntity[]> {
    return manager.getRepository(EggVariableEntity).find({ where: { eggId }, order: { position: 'ASC', createdAt: 'ASC' } });
  }

  findVariable(eggId: string, id: string, manager: EntityManager = this.eggs.manager): Promise<EggVariableEntity | null> {
    return manager.getRepository(EggVariableEntity).findOneBy({ eggId, id });
  }

  countServersUsing(eggId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(ServerEntity).countBy({ eggId });
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

  async deleteEgg(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(EggEntity).delete({ id });
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
