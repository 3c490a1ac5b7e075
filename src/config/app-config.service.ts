import { join, resolve } from 'node:path';
import { CAPTCHA_VERIFY_URLS, CaptchaProvider, EnvSchema } from 'src/config/env.schema';
import { resolveDevAppKey, validateEnv } from 'src/config/load-config';

export interface CaptchaConfig {
  provider: CaptchaProvider;
  siteKey: string | null;
  secretKey: string;
  verifyUrl: string;
  /** reCAPTCHA v3: the lowest passing score, 0.0 to 1.0. */
  minScore: number;
  timeoutMs: number;
}

interface MailConfig {
  /** Unset: mails are not sent, and a warning says so. */
  smtpUrl?: string;
  from: string;
}

export type DatabaseConfig =
  | {
      kind: 'postgres';
      url: string;
      /**
       * PostgreSQL itself, for what needs a session beyond one transaction (migrations, advisory locks,
       * LISTEN): DATABASE_DIRECT_URL, else `url`.
       */
      directUrl: string;
      /** DATABASE_URL is a pooler in transaction mode (DATABASE_DIRECT_URL is set): no session state on it. */
      pooled: boolean;
      poolMax: number;
      runMigrations: boolean;
    }
  | { kind: 'pglite'; dataDir: string; runMigrations: boolean; vacuumIntervalMs: number };

/** Typed, grouped view of the validated environment. */
export class AppConfigService {
  readonly env: EnvSchema['NODE_ENV'];
  /** The panel's name as its pages show it. */
  readonly appName: string;
  /** `drainMs`: SHUTDOWN_DRAIN_SECONDS, how long a closing panel reports itself unhealthy before it stops taking connections. */
  readonly http: { host: string; port: number; appUrl: string; trustedOrigins: string[]; trustedProxies: string[]; drainMs: number };
  readonly db: DatabaseConfig;
  /** `format` is resolved: `auto` is pretty on a terminal outside production, JSON elsewhere. */
  readonly log: { level: EnvSchema['LOG_LEVEL']; format: 'json' | 'pretty' };
  readonly files: { editMaxBytes: number };
  /** argon2id parameters for new password hashes (memory in KiB). */
  readonly passwordHash: { memoryCost: number; timeCost: number; parallelism: number };
  /** Whether user-supplied URLs may lead to private addresses (OutboundPolicy); never in production. */
  readonly outbound: { allowPrivate: boolean };
  /** The egg gallery's documents (EGG_GALLERY_URLS); empty: no gallery. */
  readonly eggGallery: { urls: string[] };
  readonly rateLimit: { enabled: boolean; redisUrl?: string };
  /** `zeroLimitUnlimited`: a server backup limit of 0 means no limit rather than no backups. */
  /** S3 URL lifetimes in seconds; uploads older than `staleUploadMs` are aborted every `cleanupIntervalMs`. */
  /** Days each log category is kept (0: for ever), and how the sweep runs (src/modules/retention/). */
  readonly retention: {
    audit: { security: number; other: number };
    activity: { security: number; console: number; other: number };
    intervalMs: number;
    batchSize: number;
  };
  readonly backups: {
    zeroLimitUnlimited: boolean;
    partUrlTtlSeconds: number;
    downloadUrlTtlSeconds: number;
    staleUploadMs: number;
    cleanupIntervalMs: number;
  };
  /** `ttlMs` 0: no caching. */
  readonly hotCache: { ttlMs: number; maxEntries: number };
  /** How long console WebSocket tokens live, in seconds. */
  readonly console: { tokenTtlSeconds: number };
  readonly auth: {
    appKey: string;
    registrationEnabled: boolean;
    secureCookies: boolean;
    firstAdmin?: { email: string; password: string; username?: string };
  };
  /** `maxRunning`: SCHEDULER_MAX_RUNNING, the most runs one process has under way. */
  readonly scheduler: { enabled: boolean; tickMs: number; staleClaimMs: number; batchSize: number; maxRunning: number };
  /** Server transfers (docs/admin-guide.md#transfers): how long one may stay silent before it is failed. */
  readonly transfers: { timeoutMs: number };
  /** null: no CAPTCHA provider configured, so no CAPTCHA is asked for. */
  readonly captcha: CaptchaConfig | null;
  readonly mail: MailConfig;
  /** The built web UI's directory (`npm run build` writes dist/web). */
  readonly web: { dir: string };
  /** Whether /api/docs, /api/docs.json and /api/docs.yaml are served. */
  readonly docs: { enabled: boolean };
  /** The live-status WebSocket: one call per watched node every `intervalMs`, each given `timeoutMs`. */
  readonly liveStatus: { intervalMs: number; timeoutMs: number; maxSocketsPerUser: number };
  /** Prometheus metrics (src/modules/metrics): null token, no /metrics. */
  readonly metrics: { token: string | null; perServer: boolean };
  /** The usage history's sampler (src/modules/usage). */
  readonly usage: { sampleIntervalMs: number; sampleTimeoutMs: number };

  constructor(schema: EnvSchema) {
    this.env = schema.NODE_ENV;
    this.appName = schema.APP_NAME;
    const appOrigin = new URL(schema.APP_URL).origin;
    this.http = {
      host: schema.HOST,
      port: schema.PORT,
      appUrl: schema.APP_URL,
      trustedOrigins: [...new Set([appOrigin, ...schema.TRUSTED_ORIGINS.map((o) => new URL(o).origin)])],
      trustedProxies: schema.TRUSTED_PROXIES,
      drainMs: Math.round(schema.SHUTDOWN_DRAIN_SECONDS * 1000),
    };
    this.db = schema.DATABASE_URL
      ? {
          kind: 'postgres',
          url: schema.DATABASE_URL,
          directUrl: schema.DATABASE_DIRECT_URL ?? schema.DATABASE_URL,
          pooled: schema.DATABASE_DIRECT_URL !== undefined,
          poolMax: schema.DB_POOL_MAX,
          runMigrations: schema.DB_RUN_MIGRATIONS,
        }
      : {
          kind: 'pglite',
          dataDir: schema.PGLITE_DIR ?? resolve(schema.DATA_DIR, 'pglite'),
          runMigrations: schema.DB_RUN_MIGRATIONS,
          vacuumIntervalMs: schema.EMBEDDED_VACUUM_INTERVAL_MINUTES * 60_000,
        };
    this.log = {
      level: schema.LOG_LEVEL,
      format: schema.LOG_FORMAT === 'auto' ? (schema.NODE_ENV !== 'production' && process.stdout.isTTY ? 'pretty' : 'json') : schema.LOG_FORMAT,
    };
    this.files = { editMaxBytes: schema.FILE_EDIT_MAX_MB * 1024 * 1024 };
    this.passwordHash = { memoryCost: schema.PASSWORD_HASH_MEMORY_KIB, timeCost: schema.PASSWORD_HASH_TIME_COST, parallelism: schema.PASSWORD_HASH_PARALLELISM };
    this.outbound = { allowPrivate: schema.OUTBOUND_ALLOW_PRIVATE };
    this.eggGallery = { urls: [...new Set(schema.EGG_GALLERY_URLS)] };
    this.rateLimit = { enabled: schema.RATE_LIMIT_ENABLED, redisUrl: schema.REDIS_URL };
    this.retention = {
      audit: { security: schema.AUDIT_SECURITY_RETENTION_DAYS, other: schema.AUDIT_RETENTION_DAYS },
      activity: { security: schema.ACTIVITY_SECURITY_RETENTION_DAYS, console: schema.ACTIVITY_CONSOLE_RETENTION_DAYS, other: schema.ACTIVITY_RETENTION_DAYS },
      intervalMs: schema.LOG_RETENTION_INTERVAL_MINUTES * 60_000,
      batchSize: schema.LOG_RETENTION_BATCH_SIZE,
    };
    this.backups = {
      zeroLimitUnlimited: schema.BACKUP_LIMIT_ZERO_UNLIMITED,
      partUrlTtlSeconds: schema.BACKUP_S3_PART_URL_TTL_SECONDS,
      downloadUrlTtlSeconds: schema.BACKUP_S3_DOWNLOAD_URL_TTL_SECONDS,
      staleUploadMs: schema.BACKUP_S3_STALE_UPLOAD_HOURS * 3_600_000,
      cleanupIntervalMs: schema.BACKUP_S3_CLEANUP_INTERVAL_MINUTES * 60_000,
    };
    this.hotCache = { ttlMs: schema.HOT_CACHE_TTL_SECONDS * 1000, maxEntries: schema.HOT_CACHE_MAX_ENTRIES };
    this.console = { tokenTtlSeconds: schema.CONSOLE_TOKEN_TTL_SECONDS };
    this.auth = {
      appKey: schema.APP_KEY ?? resolveDevAppKey(schema.DATA_DIR),
      registrationEnabled: schema.REGISTRATION_ENABLED,
      secureCookies: schema.NODE_ENV === 'production',
      firstAdmin:
        schema.ADMIN_EMAIL && schema.ADMIN_PASSWORD
          ? { email: schema.ADMIN_EMAIL, password: schema.ADMIN_PASSWORD, username: schema.ADMIN_USERNAME }
          : undefined,
    };
    this.scheduler = {
      enabled: schema.SCHEDULER_ENABLED ?? schema.NODE_ENV !== 'test',
      tickMs: schema.SCHEDULER_TICK_SECONDS * 1000,
      staleClaimMs: schema.SCHEDULER_STALE_CLAIM_SECONDS * 1000,
      batchSize: schema.SCHEDULER_BATCH_SIZE,
      maxRunning: schema.SCHEDULER_MAX_RUNNING,
    };
    this.transfers = { timeoutMs: schema.TRANSFER_TIMEOUT_S * 1000 };
    this.captcha = schema.CAPTCHA_PROVIDER
      ? {
          provider: schema.CAPTCHA_PROVIDER,
          siteKey: schema.CAPTCHA_SITE_KEY ?? null,
          secretKey: schema.CAPTCHA_SECRET_KEY ?? '',
          verifyUrl: schema.CAPTCHA_VERIFY_URL ?? CAPTCHA_VERIFY_URLS[schema.CAPTCHA_PROVIDER],
          minScore: schema.CAPTCHA_MIN_SCORE,
          timeoutMs: schema.CAPTCHA_TIMEOUT_MS,
        }
      : null;
    this.docs = { enabled: schema.API_DOCS_ENABLED };
    this.metrics = { token: schema.METRICS_TOKEN ?? null, perServer: schema.METRICS_PER_SERVER };
    this.usage = { sampleIntervalMs: schema.USAGE_SAMPLE_INTERVAL_SECONDS * 1000, sampleTimeoutMs: schema.USAGE_SAMPLE_TIMEOUT_MS };
    this.liveStatus = {
      intervalMs: schema.LIVE_STATUS_INTERVAL_MS,
      timeoutMs: schema.LIVE_STATUS_TIMEOUT_MS,
      maxSocketsPerUser: schema.LIVE_STATUS_MAX_SOCKETS_PER_USER,
    };
    // This file is dist/config/app-config.service.js once built, so dist/web is one level up.
    this.web = { dir: resolve(schema.WEB_DIR ?? join(__dirname, '..', 'web')) };
    this.mail = { smtpUrl: schema.SMTP_URL, from: schema.MAIL_FROM ?? `Hatchery <no-reply@${new URL(schema.APP_URL).hostname}>` };
  }

  static fromEnv(env: Record<string, string | undefined>): AppConfigService {
    return new AppConfigService(validateEnv(env));
  }
}
