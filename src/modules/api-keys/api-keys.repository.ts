import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>) {}

  findByKeyHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { keyHash }, relations: { user: true } });
  }

  findForUser(userId: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countForUser(userId: string): Promise<number> {
    return this.repo.countBy({ userId });
  }

  insert(key: Partial<ApiKeyEntity>): Promise<ApiKeyEntity> {
    return this.repo.save(this.repo.create(key));
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }

  async deleteForUser(userId: string, identifier: string): Promise<boolean> {
    const result = await this.repo.delete({ userId, identifier });
    return (result.affected ?? 0) > 0;
  }
}
