import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThanOrEqual, Not, Repository } from 'typeorm';
import { SessionEntity } from 'src/modules/sessions/session.entity';

@Injectable()
export class SessionsRepository {
  constructor(@InjectRepository(SessionEntity) private readonly repo: Repository<SessionEntity>) {}

  findByTokenHash(tokenHash: string): Promise<SessionEntity | null> {
    // One query: findOne with relations would first select the distinct id, then the row.
    return this.repo.createQueryBuilder('s').innerJoinAndSelect('s.user', 'user').where('s.tokenHash = :tokenHash', { tokenHash }).getOne();
  }

  findForUser(userId: string): Promise<SessionEntity[]> {
    return this.repo.find({ where: { userId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  findOneForUser(userId: string, id: string): Promise<SessionEntity | null> {
    return this.repo.findOneBy({ userId, id });
  }

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(fn);
  }

  /**
   * Inserts a session and trims the user's sessions to the newest `max`, expired ones first; the
   * caller holds a lock on the user row, so concurrent sign-ins cannot both keep a sixth.
   */
  async insertCapped(session: SessionEntity, max: number, now: Date, manager: EntityManager): Promise<void> {
    const sessions = manager.getRepository(SessionEntity);
    await sessions.delete({ userId: session.userId, expiresAt: LessThanOrEqual(now) });
    await sessions.insert(session);
    const kept = await sessions.find({
      where: { userId: session.userId },
      order: { createdAt: 'DESC', id: 'ASC' },
      select: { id: true },
    });
    const surplus = kept.slice(max).map((s) => s.id);
    if (surplus.length > 0) {
      await sessions.delete(surplus);
    }
  }

  async update(id: string, changes: Partial<Pick<SessionEntity, 'expiresAt' | 'refreshedAt' | 'lastSeenAt'>>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  async deleteForUser(userId: string, exceptId?: string, manager: EntityManager = this.repo.manager): Promise<number> {
    const where = exceptId ? { userId, id: Not(exceptId) } : { userId };
    const result = await manager.getRepository(SessionEntity).delete(where);
    return result.affected ?? 0;
  }
}
