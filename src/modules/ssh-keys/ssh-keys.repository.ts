import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SshKeyEntity } from 'src/modules/ssh-keys/ssh-key.entity';
import { isUniqueViolation } from 'src/database/pg-errors';

@Injectable()
export class SshKeysRepository {
  constructor(@InjectRepository(SshKeyEntity) private readonly repo: Repository<SshKeyEntity>) {}

  listOf(userId: string): Promise<SshKeyEntity[]> {
    return this.repo.find({ where: { userId }, order: { id: 'ASC' } });
  }

  countOf(userId: string): Promise<number> {
    return this.repo.countBy({ userId });
  }

  findOne(userId: string, fingerprint: string): Promise<SshKeyEntity | null> {
    return this.repo.findOneBy({ userId, fingerprint });
  }

  /** Inserts the key; `null` when the user already has it. */
  async insert(key: Pick<SshKeyEntity, 'userId' | 'name' | 'fingerprint' | 'publicKey'>): Promise<SshKeyEntity | null> {
    try {
      return await this.repo.save(this.repo.create(key));
    } catch (e) {
      if (isUniqueViolation(e)) {
        return null;
      }
      throw e;
    }
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }
}
