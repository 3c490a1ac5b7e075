import * as bcrypt from 'bcryptjs';
import { AppConfigService } from 'src/config/app-config.service';
import type { AuditService } from 'src/modules/audit/audit.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import type { UserLifecycle } from 'src/modules/users/user-lifecycle';
import type { UserEntity } from 'src/modules/users/user.entity';
import type { UsersRepository } from 'src/modules/users/users.repository';
import { UsersService } from 'src/modules/users/users.service';
import { strictMock } from 'test/utils/strict-mock';
import { PanelEvents } from 'src/common/events/panel-events';
import type { AdminRoles } from 'src/modules/roles/admin-roles';

const hasher = new PasswordHasher(
  AppConfigService.fromEnv({ APP_KEY: 'x'.repeat(32), NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1', PASSWORD_HASH_PARALLELISM: '1' }),
);
const PASSWORD = 'from-pterodactyl';
const BCRYPT = bcrypt.hashSync(PASSWORD, 4).replace(/^\$2b\$/, '$2y$');

const userWith = (passwordHash: string): UserEntity => ({ id: '7', passwordHash }) as UserEntity;

/** A UsersService whose repository has only `replacePasswordHash` (when given): any other use fails the test. */
const sutWith = (replacePasswordHash?: jest.Mock): UsersService =>
  new UsersService(
    strictMock<UsersRepository>('users', replacePasswordHash ? { replacePasswordHash } : {}),
    strictMock<UserLifecycle>('lifecycle'),
    hasher,
    strictMock<AuditService>('audit'),
    new PanelEvents(),
    strictMock<AdminRoles>('roles'),
  );

describe(UsersService.name, () => {
  describe('verifyPassword', () => {
    it('should replace a matching bcrypt hash with an argon2id hash of the same password, in the row and the entity', async () => {
      const replacePasswordHash = jest.fn().mockResolvedValue(true);
      const user = userWith(BCRYPT);
      await expect(sutWith(replacePasswordHash).verifyPassword(user, PASSWORD)).resolves.toBe(true);
      expect(replacePasswordHash).toHaveBeenCalledTimes(1);
      const [id, from, to] = replacePasswordHash.mock.calls[0] as [string, string, string];
      expect([id, from]).toEqual(['7', BCRYPT]);
      expect(to).toMatch(/^\$argon2id\$/);
      expect(user.passwordHash).toBe(to);
      await expect(hasher.verify(to, PASSWORD)).resolves.toBe(true);
    });

    it('should keep the entity as it is when the row changed meanwhile (a concurrent password change)', async () => {
      const user = userWith(BCRYPT);
      await expect(sutWith(jest.fn().mockResolvedValue(false)).verifyPassword(user, PASSWORD)).resolves.toBe(true);
      expect(user.passwordHash).toBe(BCRYPT);
    });

    it('should write nothing when the password is wrong', async () => {
      const user = userWith(BCRYPT);
      await expect(sutWith().verifyPassword(user, 'wrong')).resolves.toBe(false);
      expect(user.passwordHash).toBe(BCRYPT);
    });

    it('should write nothing for an argon2id hash', async () => {
      const hash = await hasher.hash(PASSWORD);
      await expect(sutWith().verifyPassword(userWith(hash), PASSWORD)).resolves.toBe(true);
    });

    it('should refuse when there is no account, after a real check', async () => {
      const verify = jest.spyOn(hasher, 'verify');
      await expect(sutWith().verifyPassword(null, PASSWORD)).resolves.toBe(false);
      expect(verify).toHaveBeenCalledWith(undefined, PASSWORD);
      verify.mockRestore();
    });
  });
});
