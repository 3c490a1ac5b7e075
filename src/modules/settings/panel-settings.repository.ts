import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { PanelSettingEntity } from 'src/modules/settings/panel-setting.entity';

@Injectable()
export class PanelSettingsRepository {
  constructor(@InjectRepository(PanelSettingEntity) private readonly repo: Repository<PanelSettingEntity>) {}

  findAll(manager?: EntityManager): Promise<PanelSettingEntity[]> {
    return (manager?.getRepository(PanelSettingEntity) ?? this.repo).find();
  }

  /** Every row, locked until the transaction ends: concurrent updates apply one after the other. */
  findAllForUpdate(manager: EntityManager): Promise<PanelSettingEntity[]> {
    return manager.getRepository(PanelSettingEntity).createQueryBuilder('s').setLock('pessimistic_write').getMany();
  }

  async save(rows: PanelSettingEntity[], manager: EntityManager): Promise<void> {
    await manager.getRepository(PanelSettingEntity).upsert(rows, ['key']);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }
}
