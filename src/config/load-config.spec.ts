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

  it('should let outbound URLs reach private addresses only when asked, and never in production', () => {
    expect(AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40) }).outbound).toEqual({ allowPrivate: false });
    expect(AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound).toEqual({ allowPrivate: true });
    expect(problemsOf({ NODE_ENV: 'production', APP_KEY: 'x'.repeat(32), OUTBOUND_ALLOW_PRIVATE: 'true' })).toEqual([
      'OUTBOUND_ALLOW_PRIVATE: OUTBOUND_ALLOW_PRIVATE must not be true in production (it lets users reach private networks)',
    ]);
    expect(problemsOf({ NODE_ENV: 'production', APP_KEY: 'x'.repeat(32), OUTBOUND_ALLOW_PRIVATE: 'false' })).toEqual([]);
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
    expect(config.db).toEqual({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), runMigrations: true, vacuumIntervalMs: 300_000 });
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
    expect(config.db).toEqual({ kind: 'postgres', url: 'postgres://hatchery@db:5432/hatchery', directUrl: 'postgres://hatchery@db:5432/hatchery', pooled: false, poolMax: 20, runMigrations: true });
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
      maxRunning: 500,
    });
    expect(AppConfigService.fromEnv({ ...key, NODE_ENV: 'test' }).scheduler.enabled).toBe(false);
    expect(AppConfigService.fromEnv({ ...key, NODE_ENV: 'test', SCHEDULER_ENABLED: 'true' }).scheduler.enabled).toBe(true);
    expect(AppConfigService.fromEnv({ ...key, SCHEDULER_ENABLED: 'false', SCHEDULER_TICK_SECONDS: '30' }).scheduler).toMatchObject({ enabled: false, tickMs: 30_000 });
    expect(problemsOf({ SCHEDULER_TICK_SECONDS: '0', SCHEDULER_STALE_CLAIM_SECONDS: '4', SCHEDULER_ENABLED: 'sometimes' }).map((p) => p.split(':')[0])).toEqual([
      'SCHEDULER_ENABLED',
      'SCHEDULER_TICK_SECONDS',
      'SCHEDULER_STALE_CLAIM_SECONDS',
    ]);
  });

  it('should take DATABASE_DIRECT_URL as PostgreSQL itself beside a pooled DATABASE_URL, and a drain time in seconds', () => {
    const key = { APP_KEY: 'k'.repeat(40) };
    const direct = AppConfigService.fromEnv({ ...key, DATABASE_URL: 'postgres://db/x' }).db;
    expect(direct).toMatchObject({ kind: 'postgres', url: 'postgres://db/x', directUrl: 'postgres://db/x', pooled: false });
    const pooled = AppConfigService.fromEnv({ ...key, DATABASE_URL: 'postgres://pgbouncer:6432/x', DATABASE_DIRECT_URL: 'postgres://db:5432/x' }).db;
    expect(pooled).toMatchObject({ url: 'postgres://pgbouncer:6432/x', directUrl: 'postgres://db:5432/x', pooled: true });
    expect(problemsOf({ DATABASE_DIRECT_URL: 'mysql://db/x' })).toEqual(['DATABASE_DIRECT_URL: DATABASE_DIRECT_URL must be a postgres:// URL']);
    expect(AppConfigService.fromEnv(key).http.drainMs).toBe(0);
    expect(AppConfigService.fromEnv({ ...key, SHUTDOWN_DRAIN_SECONDS: '2.5' }).http.drainMs).toBe(2500);
    expect(problemsOf({ SHUTDOWN_DRAIN_SECONDS: '-1' }).map((p) => p.split(':')[0])).toEqual(['SHUTDOWN_DRAIN_SECONDS']);
  });

  it('should cache for 60 s by default, not at all with HOT_CACHE_TTL_SECONDS=0, and refuse a negative TTL', () => {
    const key = { APP_KEY: 'k'.repeat(40) };
    expect(AppConfigService.fromEnv(key).hotCache).toEqual({ ttlMs: 60_000, maxEntries: 5_000 });
    expect(AppConfigService.fromEnv({ ...key, HOT_CACHE_TTL_SECONDS: '0', HOT_CACHE_MAX_ENTRIES: '100' }).hotCache).toEqual({ ttlMs: 0, maxEntries: 100 });
    expect(problemsOf({ HOT_CACHE_TTL_SECONDS: '-1', HOT_CACHE_MAX_ENTRIES: '0' }).map((p) => p.split(':')[0])).toEqual(['HOT_CACHE_TTL_SECONDS', 'HOT_CACHE_MAX_ENTRIES']);
  });

  it('should poll watched nodes every 5 s with a 5 s timeout and allow 10 sockets per account by default, and refuse intervals under 100 ms', () => {
    const key = { APP_KEY: 'k'.repeat(40) };
    expect(AppConfigService.fromEnv(key).liveStatus).toEqual({ intervalMs: 5_000, timeoutMs: 5_000, maxSocketsPerUser: 10 });
    expect(
      AppConfigService.fromEnv({ ...key, LIVE_STATUS_INTERVAL_MS: '250', LIVE_STATUS_TIMEOUT_MS: '1000', LIVE_STATUS_MAX_SOCKETS_PER_USER: '3' }).liveStatus,
    ).toEqual({ intervalMs: 250, timeoutMs: 1_000, maxSocketsPerUser: 3 });
    expect(problemsOf({ LIVE_STATUS_INTERVAL_MS: '50', LIVE_STATUS_TIMEOUT_MS: 'soon', LIVE_STATUS_MAX_SOCKETS_PER_USER: '0' }).map((p) => p.split(':')[0])).toEqual([
      'LIVE_STATUS_INTERVAL_MS',
      'LIVE_STATUS_TIMEOUT_MS',
      'LIVE_STATUS_MAX_SOCKETS_PER_USER',
    ]);
  });

  it("should list Pterodactyl's 14 stock eggs in the egg gallery by default, none with EGG_GALLERY_URLS=none, and refuse a non-http URL", () => {
    const urls = AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40) }).eggGallery.urls;
    expect(urls).toHaveLength(14);
    expect(urls).toContain('https://raw.githubusercontent.com/pterodactyl/panel/1.0-develop/database/Seeders/eggs/minecraft/egg-paper.json');
    expect(urls.every((u) => u.startsWith('https://raw.githubusercontent.com/pterodactyl/panel/1.0-develop/database/Seeders/eggs/'))).toBe(true);
    expect(AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), EGG_GALLERY_URLS: 'none' }).eggGallery.urls).toEqual([]);
    expect(AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), EGG_GALLERY_URLS: 'https://a.test/1.json, https://a.test/1.json,http://b.test/2.json' }).eggGallery.urls).toEqual([
      'https://a.test/1.json',
      'http://b.test/2.json',
    ]);
    expect(problemsOf({ EGG_GALLERY_URLS: 'ftp://a.test/1.json' })).toEqual(['EGG_GALLERY_URLS: EGG_GALLERY_URLS must be a comma-separated list of http(s) URLs']);
  });

  it('should ask for no CAPTCHA and send no mail by default', () => {
    const config = AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), APP_URL: 'https://panel.example.com' });
    expect(config.captcha).toBeNull();
    expect(config.mail).toEqual({ smtpUrl: undefined, from: 'Hatchery <no-reply@panel.example.com>' });
  });

  it.each([
    ['turnstile', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'],
    ['hcaptcha', 'https://api.hcaptcha.com/siteverify'],
    ['recaptcha', 'https://www.google.com/recaptcha/api/siteverify'],
  ])("should take %s with only its secret key, and default to the provider's verify URL", (provider, verifyUrl) => {
    const config = AppConfigService.fromEnv({ APP_KEY: 'k'.repeat(40), CAPTCHA_PROVIDER: provider, CAPTCHA_SECRET_KEY: 'shh' });
    expect(config.captcha).toEqual({ provider, siteKey: null, secretKey: 'shh', verifyUrl, minScore: 0.5, timeoutMs: 5000 });
  });

  it('should take a verify URL, a site key, a score and SMTP settings when given', () => {
    const config = AppConfigService.fromEnv({
      APP_KEY: 'k'.repeat(40),
      CAPTCHA_PROVIDER: 'recaptcha',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_SECRET_KEY: 'shh',
      CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/verify',
      CAPTCHA_MIN_SCORE: '0.7',
      SMTP_URL: 'smtps://mailer:p%40ss@smtp.example.com:465',
      MAIL_FROM: 'Panel <panel@example.com>',
    });
    expect(config.captcha).toMatchObject({ siteKey: 'site', verifyUrl: 'http://127.0.0.1:9/verify', minScore: 0.7 });
    expect(config.mail).toEqual({ smtpUrl: 'smtps://mailer:p%40ss@smtp.example.com:465', from: 'Panel <panel@example.com>' });
    for (const score of ['0', '1', '0.0', '1.0']) {
      expect(problemsOf({ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET_KEY: 's', CAPTCHA_MIN_SCORE: score })).toEqual([]);
    }
  });

  it('should list every bad CAPTCHA and mail variable at boot', () => {
    const problems = problemsOf({
      CAPTCHA_PROVIDER: 'recaptcha',
      CAPTCHA_MIN_SCORE: '1.5',
      CAPTCHA_VERIFY_URL: 'ftp://example.com/verify',
      SMTP_URL: 'http://mail.example.com',
      MAIL_FROM: 'not an address',
    });
    expect(problems).toEqual([
      'CAPTCHA_SECRET_KEY: CAPTCHA_SECRET_KEY must be set when CAPTCHA_PROVIDER is set',
      'CAPTCHA_VERIFY_URL: CAPTCHA_VERIFY_URL must be an http(s) URL',
      'CAPTCHA_MIN_SCORE: CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0',
      'SMTP_URL: SMTP_URL must be an smtp:// or smtps:// URL',
      'MAIL_FROM: MAIL_FROM must be an address, or "Name <address>"',
    ]);
    expect(problemsOf({ CAPTCHA_PROVIDER: 'recaptcha-v2', CAPTCHA_MIN_SCORE: '-0.1' })).toEqual([
      'CAPTCHA_PROVIDER: CAPTCHA_PROVIDER must be turnstile, hcaptcha or recaptcha (or unset for no CAPTCHA)',
      'CAPTCHA_SECRET_KEY: CAPTCHA_SECRET_KEY must be set when CAPTCHA_PROVIDER is set',
      'CAPTCHA_MIN_SCORE: CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0',
    ]);
    expect(problemsOf({ CAPTCHA_MIN_SCORE: 'high' })).toEqual(['CAPTCHA_MIN_SCORE: CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0']);
  });
});
