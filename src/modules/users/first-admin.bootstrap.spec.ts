import { usernameFromEmail } from 'src/modules/users/first-admin.bootstrap';

describe('usernameFromEmail', () => {
  it.each([
    ['root@example.test', 'root'],
    ['Jane.Doe+panel@example.test', 'jane.doepanel'],
    ['_ops@example.test', 'ops'],
    ['--@example.test', 'admin'],
    ['!!!@example.test', 'admin'],
    [`${'a'.repeat(200)}@example.test`, 'a'.repeat(191)],
  ])('should derive %s → %s', (email, expected) => {
    expect(usernameFromEmail(email)).toBe(expected);
    expect(expected).toMatch(/^[a-z0-9][a-z0-9_.-]{0,190}$/);
  });
});
