import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { isUniqueViolation } from 'src/database/pg-errors';
import { AdminRoleEntity } from 'src/modules/roles/admin-role.entity';
import { RoleError } from 'src/modules/roles/roles.errors';

@Injectable()
export class AdminRolesRepository {
  constructor(@InjectRepository(AdminRoleEntity) private readonly repo: Repository<AdminRoleEntity>) {}

  private of(manager?: EntityManager): Repository<AdminRoleEntity> {
    return manager?.getRepository(AdminRoleEntity) ?? this.repo;
  }

  findAll(manager?: EntityManager): Promise<AdminRoleEntity[]> {
    return this.of(manager).find({ order: { name: 'ASC', id: 'ASC' } });
  }

  findById(id: string, manager?: EntityManager): Promise<AdminRoleEntity | null> {
    return this.of(manager).findOne({ where: { id } });
  }

  findByName(name: string, manager: EntityManager): Promise<AdminRoleEntity | null> {
    return this.of(manager).createQueryBuilder('r').where('lower(r.name) = lower(:name)', { name }).getOne();
  }

  /** The role, locked until the transaction ends. */
  findForUpdate(id: string, manager: EntityManager): Promise<AdminRoleEntity | null> {
    return this.of(manager).createQueryBuilder('r').setLock('pessimistic_write').where({ id }).getOne();
  }

  async lockExisting(ids: readonly string[], manager: EntityManager): Promise<string[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows = await this.of(manager).createQueryBuilder('r').select('r.id', 'id').where('r.id IN (:...ids)', { ids }).setLock('pessimistic_read').getRawMany<{ id: string }>();
    return rows.map((r) => String(r.id));
  }

  /** Saves the role; a name another role took meanwhile is ROLE_NAME_TAKEN. */
  async save(role: AdminRoleEntity, manager: EntityManager): Promise<AdminRoleEntity> {
    try {
      return await this.of(manager).save(role);
    } catch (e) {
      if (isUniqueViolation(e)) {
        throw new AppException(RoleError.NAME_TAKEN);
      }
      throw e;
    }
  }

  create(fields: Partial<AdminRoleEntity>): AdminRoleEntity {
    return this.repo.create(fields);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await this.of(manager).delete({ id });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }
}
