import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfigService } from 'src/config/app-config.service';
import { ConfigValidationError, validateEnv } from 'src/config/load-config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    validateEnv(env);
  } catch (e) {
    if (e instanceof ConfigValidationError) {
      return e.problems;
    }
    throw e;
  }
  return [];
};

describe(AppConfigService.name, () => {
  it('should refuse to boot in production without APP_KEY', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^APP_KEY: APP_KEY must be set in production/)]);
  });

  it('should refuse an APP_KEY shorter than 32 characters, in any environment', () => {
    expect(problemsOf({ NODE_ENV: 'production', APP_KEY: 'x'.repeat(31) })).toEqual(['APP_KEY: APP_KEY must be at least 32 characters']);
    expect(problemsOf({ APP_KEY: 'short' })).toEqual(['APP_KEY: APP_KEY must be at least 32 characters']);
    expect(problemsOf({ NODE_ENV: 'production', APP_KEY: 'x'.repeat(32) })).toEqual([]);
  });

  it('should list every bad variable at once when several are wrong', () => {
    const problems = problemsOf({
      NODE_ENV: 'staging',
      PORT: 'eighty',
      APP_URL: 'not a url',
      DATABASE_URL: 'mysql://localhost/x',
      LOG_LEVEL: 'loud',
      REGISTRATION_ENABLED: 'perhaps',
      ADMIN_EMAIL: 'root@example.test',
    });
    const variables = problems.map((p) => p.split(':')[0]);
    expect(new Set(variables)).toEqual(
      new Set(['NODE_ENV', 'PORT', 'APP_URL', 'DATABASE_URL', 'LOG_LEVEL', 'REGISTRATION_ENABLED', 'ADMIN_PASSWORD']),
    );
    expect(() => validateEnv({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/Invalid configuration:\n {2}- PORT: .*\n {2}- LOG_LEVEL: /);
  });

  it('should use defaults for an empty environment: embedded database, registration off', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hatchery-config-'));
    const config = AppConfigService.fromEnv({ DATA_DIR: dataDir });
    expect(config.db).toEqual({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), runMigrations: true });
    expect(config.http).toMatchObject({ port: 3000, appUrl: 'http://localhost:3000', trustedOrigins: ['http://localhost:3000'] });
    expect(config.auth.registrationEnabled).toBe(false);
    expect(config.auth.secureCookies).toBe(false);
  });

  it('should keep a development APP_KEY in DATA_DIR and reuse it across boots', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hatchery-config-'));
    const first = AppConfigService.fromEnv({ DATA_DIR: dataDir }).auth.appKey;
    const second = AppConfigService.fromEnv({ DATA_DIR: dataDir }).auth.appKey;
    expect(first).toHaveLength(43);
    expect(second).toBe(first);
    expect(readFileSync(join(dataDir, 'app-key'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dataDir, 'app-key')).mode & 0o777).toBe(0o600);
  });

  it('should read PostgreSQL, trusted origins and proxies, and Secure cookies in production', () => {
    const config = AppConfigService.fromEnv({
      NODE_ENV: 'production',
      APP_KEY: 'k'.repeat(40),
      APP_URL: 'https://panel.example.com/',
      TRUSTED_ORIGINS: 'https://admin.example.com, https://panel.example.com',
      TRUSTED_PROXIES: '10.0.0.1,loopback',
      DATABASE_URL: 'postgres://hatchery@db:5432/hatchery',
      DB_POOL_MAX: '20',
    });
    expect(config.db).toEqual({ kind: 'postgres', url: 'postgres://hatchery@db:5432/hatchery', poolMax: 20, runMigrations: true });
    expect(config.http.trustedOrigins).toEqual(['https://panel.example.com', 'https://admin.example.com']);
    expect(config.http.trustedProxies).toEqual(['10.0.0.1', 'loopback']);
    expect(config.auth.secureCookies).toBe(true);
  });

  it('should run the scheduler by default except under NODE_ENV=test, where tests drive the runner', () => {
    const key = { APP_KEY: 'k'.repeat(40) };
    expect(AppConfigService.fromEnv({ ...key, NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' }).scheduler).toEqual({
      enabled: true,
      tickMs: 10_000,
      staleClaimMs: 300_000,
      batchSize: 50,
    });
    expect(AppConfigService.fromEnv({ ...key, NODE_ENV: 'test' }).scheduler.enabled).toBe(false);
    expect(AppConfigService.fromEnv({ ...key, NODE_ENV: 'test', SCHEDULER_ENABLED: 'true' }).scheduler.enabled).toBe(true);
    expect(AppConfigService.fromEnv({ ...key, SCHEDULER_ENABLED: 'false', SCHEDULER_TICK_SECONDS: '30' }).scheduler).toMatchObject({ enabled: false, tickMs: 30_000 });
    expect(problemsOf({ SCHEDULER_TICK_SECONDS: '0', SCHEDULER_STALE_CLAIM_SECONDS: '5', SCHEDULER_ENABLED: 'sometimes' }).map((p) => p.split(':')[0])).toEqual([
      'SCHEDULER_ENABLED',
      'SCHEDULER_TICK_SECONDS',
      'SCHEDULER_STALE_CLAIM_SECONDS',
    ]);
  });
});
