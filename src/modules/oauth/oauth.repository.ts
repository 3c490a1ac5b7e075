import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { AuthProviderEntity, UserIdentityEntity } from 'src/modules/oauth/auth-provider.entity';
import { OAuthError } from 'src/modules/oauth/oauth.errors';

const isUniqueViolation = (e: unknown): boolean => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';

@Injectable()
export class OAuthRepository {
  constructor(
    @InjectRepository(AuthProviderEntity) private readonly providers: Repository<AuthProviderEntity>,
    @InjectRepository(UserIdentityEntity) private readonly identities: Repository<UserIdentityEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.providers.manager.transaction(fn);
  }

  listProviders(): Promise<AuthProviderEntity[]> {
    return this.providers.find({ order: { id: 'ASC' } });
  }

  findProvider(id: string, manager: EntityManager = this.providers.manager): Promise<AuthProviderEntity | null> {
    return manager.getRepository(AuthProviderEntity).findOneBy({ id });
  }

  saveProvider(row: Partial<AuthProviderEntity>, manager: EntityManager): Promise<AuthProviderEntity> {
    return manager.getRepository(AuthProviderEntity).save(row);
  }

  async deleteProvider(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(AuthProviderEntity).delete({ id });
  }

  findIdentity(providerId: string, subject: string): Promise<UserIdentityEntity | null> {
    return this.identities.findOneBy({ providerId, subject });
  }

  identitiesOf(userId: string): Promise<UserIdentityEntity[]> {
    return this.identities.find({ where: { userId }, relations: { provider: true }, order: { id: 'ASC' } });
  }

  countIdentitiesOf(userId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(UserIdentityEntity).countBy({ userId });
  }

  findIdentityOf(userId: string, id: string, manager: EntityManager): Promise<UserIdentityEntity | null> {
    return manager.getRepository(UserIdentityEntity).findOne({ where: { userId, id }, relations: { provider: true } });
  }

  /** A new identity; IDENTITY_IN_USE when the provider's subject is another account's already. */
  async insertIdentity(row: Pick<UserIdentityEntity, 'userId' | 'providerId' | 'subject' | 'email' | 'lastUsedAt'>, manager: EntityManager): Promise<UserIdentityEntity> {
    try {
      return await manager.getRepository(UserIdentityEntity).save(manager.getRepository(UserIdentityEntity).create(row));
    } catch (e) {
      throw isUniqueViolation(e) ? new AppException(OAuthError.IDENTITY_IN_USE) : e;
    }
  }

  async touchIdentity(id: string, email: string | null, at: Date): Promise<void> {
    await this.identities.update({ id }, { email, lastUsedAt: at });
  }

  async deleteIdentity(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(UserIdentityEntity).delete({ id });
  }
}
