import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Not, Repository } from 'typeorm';
import { violations } from 'src/database/pg-errors';
import { BackupEntity } from 'src/modules/backups/backup.entity';
import { BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { BackupError } from 'src/modules/backups/backups.errors';

@Injectable()
export class BackupHostsRepository {
  constructor(@InjectRepository(BackupHostEntity) private readonly hosts: Repository<BackupHostEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.hosts.manager.transaction(fn);
  }

  findPage(skip: number, take: number): Promise<[BackupHostEntity[], number]> {
    return this.hosts.findAndCount({ order: { name: 'ASC', id: 'ASC' }, skip, take });
  }

  find(id: string, manager: EntityManager = this.hosts.manager): Promise<BackupHostEntity | null> {
    return manager.getRepository(BackupHostEntity).findOneBy({ id });
  }

  /** The row, locked until the transaction ends (update and delete). */
  lock(id: string, manager: EntityManager): Promise<BackupHostEntity | null> {
    return manager.getRepository(BackupHostEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  findS3Hosts(): Promise<BackupHostEntity[]> {
    return this.hosts.find({ where: { adapter: 's3' }, order: { id: 'ASC' } });
  }

  save(host: Partial<BackupHostEntity>, manager: EntityManager = this.hosts.manager): Promise<BackupHostEntity> {
    const repo = manager.getRepository(BackupHostEntity);
    return repo.save(repo.create(host)).catch(violations({ UQ_backup_host_name: BackupError.HOST_NAME_TAKEN }));
  }

  /** The foreign keys refuse while a node or a backup still names the host. */
  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(BackupHostEntity)
      .delete({ id })
      .catch(violations({ FK_node_backup_host: BackupError.HOST_IN_USE, FK_backup_backup_host: BackupError.HOST_IN_USE }));
  }

  /** How many backups each host holds. */
  async countBackups(ids: string[], manager: EntityManager = this.hosts.manager): Promise<Map<string, number>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows = await manager
      .getRepository(BackupEntity)
      .createQueryBuilder('b')
      .select('b.backup_host_id', 'hostId')
      .addSelect('COUNT(*)::int', 'count')
      .where({ backupHostId: In(ids) })
      .groupBy('b.backup_host_id')
      .getRawMany<{ hostId: string; count: number }>();
    return new Map(rows.map((r) => [String(r.hostId), Number(r.count)]));
  }

  /** The backups with an upload under way on the host, by upload id. */
  async uploadsOn(hostId: string): Promise<Map<string, BackupEntity>> {
    const rows = await this.hosts.manager.getRepository(BackupEntity).find({ where: { backupHostId: hostId, uploadId: Not(IsNull()) } });
    return new Map(rows.map((b) => [b.uploadId!, b]));
  }
}
