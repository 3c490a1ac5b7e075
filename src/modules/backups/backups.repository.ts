import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, IsNull, Repository } from 'typeorm';
import { BackupEntity } from 'src/modules/backups/backup.entity';

export type BackupWithServer = BackupEntity & Required<Pick<BackupEntity, 'server'>>;

/** What a daemon report changes on a backup. */
type BackupResult = Pick<BackupEntity, 'isSuccessful' | 'checksum' | 'bytes' | 'completedAt'> & Partial<Pick<BackupEntity, 'isLocked' | 'uploadId'>>;

@Injectable()
export class BackupsRepository {
  constructor(@InjectRepository(BackupEntity) private readonly backups: Repository<BackupEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.backups.manager.transaction(fn);
  }

  /** Backups that count toward the limit: in progress or successful (failed ones do not). */
  countNonFailed(serverId: string, manager: EntityManager = this.backups.manager): Promise<number> {
    return manager
      .getRepository(BackupEntity)
      .createQueryBuilder('b')
      .where('b.server_id = :serverId', { serverId })
      .andWhere(new Brackets((q) => q.where('b.completed_at IS NULL').orWhere('b.is_successful = true')))
      .getCount();
  }

  /** The backup a rotation deletes first: the oldest successful one that is not locked. */
  oldestRotatable(serverId: string): Promise<BackupEntity | null> {
    return this.backups.findOne({
      where: { serverId, isSuccessful: true, isLocked: false },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  insert(entry: Pick<BackupEntity, 'uuid' | 'serverId' | 'name' | 'ignoredFiles' | 'disk' | 'backupHostId' | 'isLocked'>, manager: EntityManager): Promise<BackupEntity> {
    const repo = manager.getRepository(BackupEntity);
    return repo.save(repo.create(entry));
  }

  /** The server's backups kept in S3 (stored objects and uploads under way), oldest first. */
  s3OfServer(serverId: string): Promise<BackupEntity[]> {
    return this.backups.find({ where: { serverId, disk: 's3' }, order: { id: 'ASC' } });
  }

  findById(id: string): Promise<BackupEntity | null> {
    return this.backups.findOneBy({ id });
  }

  findOfServer(serverId: string, id: string): Promise<BackupEntity | null> {
    return this.backups.findOneBy({ id, serverId });
  }

  /** The id of the server's backup with this uuid (lower case), or null. */
  async findIdByUuid(serverId: string, uuid: string): Promise<string | null> {
    const found = await this.backups.findOne({ select: { id: true }, where: { serverId, uuid } });
    return found?.id ?? null;
  }

  /** The backup with this uuid on whichever node, with its server (to tell another node's backup apart). */
  findByUuid(uuid: string): Promise<BackupWithServer | null> {
    return this.backups.findOne({ where: { uuid }, relations: { server: true } }) as Promise<BackupWithServer | null>;
  }

  /** Records the S3 upload of a backup still in progress; false when it has finished meanwhile. */
  async setUploadId(id: string, uploadId: string | null): Promise<boolean> {
    const done = await this.backups.update({ id, completedAt: IsNull() }, { uploadId });
    return (done.affected ?? 0) > 0;
  }

  /** Clears the upload id once the upload is completed or aborted. */
  async clearUploadId(id: string): Promise<void> {
    await this.backups.update({ id }, { uploadId: null });
  }

  /** A daemon may only report on backups of servers on its own node. */
  findByUuidOnNode(uuid: string, nodeId: string): Promise<BackupWithServer | null> {
    return this.backups.findOne({ where: { uuid, server: { nodeId } }, relations: { server: true } }) as Promise<BackupWithServer | null>;
  }

  /** Newest first. */
  pageOfServer(serverId: string, skip: number, take: number): Promise<[BackupEntity[], number]> {
    return this.backups.findAndCount({ where: { serverId }, order: { createdAt: 'DESC', id: 'DESC' }, skip, take });
  }

  /** Records the daemon's report unless one was recorded already; false when it was. */
  async complete(id: string, result: BackupResult, manager: EntityManager): Promise<boolean> {
    const done = await manager.getRepository(BackupEntity).update({ id, completedAt: IsNull() }, result);
    return (done.affected ?? 0) > 0;
  }

  /** Flips the lock in one statement, so two toggles at once cannot both read the old value. */
  async toggleLock(id: string, manager: EntityManager): Promise<BackupEntity | null> {
    await manager
      .getRepository(BackupEntity)
      .createQueryBuilder()
      .update()
      .set({ isLocked: () => 'NOT is_locked' })
      .where({ id })
      .execute();
    return manager.getRepository(BackupEntity).findOneBy({ id });
  }

  async delete(id: string, manager: EntityManager = this.backups.manager): Promise<void> {
    await manager.getRepository(BackupEntity).delete({ id });
  }
}
