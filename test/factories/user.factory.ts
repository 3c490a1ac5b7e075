import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UsersRepository } from 'src/modules/users/users.repository';

export const DEFAULT_PASSWORD = 'correct horse battery staple';
const hashes = new Map<string, Promise<string>>();

export interface UserFactoryOptions {
  admin?: boolean;
  password?: string;
  username?: string;
  email?: string;
}

/** Inserts a user through the repository, with unique values; the password is DEFAULT_PASSWORD unless given. */
export const createUser = async (app: INestApplication, options: UserFactoryOptions = {}): Promise<UserEntity> => {
  const password = options.password ?? DEFAULT_PASSWORD;
  if (!hashes.has(password)) {
    hashes.set(password, app.get(PasswordHasher).hash(password));
  }
  const suffix = randomBytes(4).toString('hex');
  return app.get(UsersRepository).insert({
    username: options.username ?? `user-${suffix}`,
    email: options.email ?? `user-${suffix}@example.test`,
    name: `User ${suffix}`,
    admin: options.admin ?? false,
    passwordHash: await hashes.get(password)!,
  });
};
