import {
  databaseNameOf,
  DATABASE_NAME,
  generateDatabasePassword,
  grantDatabasePattern,
  MAX_DATABASE_LENGTH,
  MAX_USERNAME_LENGTH,
  maxNameLength,
  quoteIdentifier,
  REMOTE,
  usernameOf,
} from 'src/modules/databases/database-names';

describe('database names', () => {
  it.each([
    ['1', 29],
    ['42', 28],
    ['1000001', 23],
    ['123456789012345678', 12],
  ])('should let server %s use names of up to %i characters, keeping both derived names within MySQL limits', (serverId, max) => {
    expect(maxNameLength(serverId)).toBe(max);
    const name = 'x'.repeat(max);
    expect(usernameOf(serverId, name)).toHaveLength(MAX_USERNAME_LENGTH);
    expect(databaseNameOf(serverId, name).length).toBeLessThanOrEqual(MAX_DATABASE_LENGTH);
  });

  it('should derive s{id}_{name} and u{id}_{name}', () => {
    expect(databaseNameOf('7', 'main')).toBe('s7_main');
    expect(usernameOf('7', 'main')).toBe('u7_main');
  });

  it.each(['main', 'Luck_Perms2', '_', '0'])('should accept the name %s', (name) => {
    expect(DATABASE_NAME.test(name)).toBe(true);
  });

  it.each(['', 'my-db', 'a b', 'a`b', "a'b", 'a.b', 'naïve', 'a;b'])('should refuse the name %j', (name) => {
    expect(DATABASE_NAME.test(name)).toBe(false);
  });

  it.each(['%', '127.0.0.1', '192.168.%', 'db.example.com', '10.0.0.0/255.0.0.0', '::1', 'fe80::1%'])('should accept the remote %s', (remote) => {
    expect(REMOTE.test(remote)).toBe(true);
  });

  it.each(['', "%'", 'a b', '`%`', 'a\\b', 'x'.repeat(61), '%;'])('should refuse the remote %j', (remote) => {
    expect(REMOTE.test(remote)).toBe(false);
  });

  it('should quote identifiers with backticks, doubling any backtick', () => {
    expect(quoteIdentifier('s1_main')).toBe('`s1_main`');
    expect(quoteIdentifier('a`b')).toBe('`a``b`');
  });

  it('should escape the GRANT wildcards _ and % (and the escape character) in a database name', () => {
    expect(grantDatabasePattern('s1_1_ab')).toBe('`s1\\_1\\_ab`');
    expect(grantDatabasePattern('a%b\\c')).toBe('`a\\%b\\\\c`');
  });
});

describe(generateDatabasePassword.name, () => {
  it('should make distinct 32-character URL-safe passwords with a lower, an upper, a digit and a symbol', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generateDatabasePassword();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/\d/);
      expect(password).toMatch(/[-_]/);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });
});
