import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  MinLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';

const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') {
    return value;
  }
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) {
    return true;
  }
  if (['false', '0', 'no', 'off', ''].includes(v)) {
    return false;
  }
  return value;
};

const toList = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
    : value;

const toNumber = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? Number(value) : value);

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** Where each provider verifies a token; CAPTCHA_VERIFY_URL replaces it (a local fake in tests). */
export const CAPTCHA_VERIFY_URLS: Record<CaptchaProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** Pterodactyl's stock eggs, as its panel seeds them (database/Seeders/eggs/), at their raw GitHub addresses. */
const STOCK_EGGS_BASE = 'https://raw.githubusercontent.com/pterodactyl/panel/1.0-develop/database/Seeders/eggs';
const STOCK_EGG_URLS: readonly string[] = [
  'minecraft/egg-paper.json',
  'minecraft/egg-vanilla-minecraft.json',
  'minecraft/egg-forge-minecraft.json',
  'minecraft/egg-bungeecord.json',
  'minecraft/egg-sponge--sponge-vanilla.json',
  'rust/egg-rust.json',
  'source-engine/egg-ark--survival-evolved.json',
  'source-engine/egg-counter--strike--global-offensive.json',
  'source-engine/egg-custom-source-engine-game.json',
  'source-engine/egg-garrys-mod.json',
  'source-engine/egg-insurgency.json',
  'source-engine/egg-team-fortress2.json',
  'voice-servers/egg-mumble-server.json',
  'voice-servers/egg-teamspeak3-server.json',
].map((path) => `${STOCK_EGGS_BASE}/${path}`);

// `addr@host` or `Name <addr@host>`, as nodemailer takes it.
const MAIL_ADDRESS = /^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

/**
 * Every environment variable Hatchery reads. Validated once at boot by `loadConfig`;
 * nothing else in the code reads `process.env`.
 */
export class EnvSchema {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @IsString()
  HOST = '0.0.0.0';

  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  APP_URL = 'http://localhost:3000';

  // Required in production (enforced below); development falls back to a key kept in DATA_DIR.
  @ValidateIf((env: EnvSchema) => env.NODE_ENV === 'production' || env.APP_KEY !== undefined)
  @MinLength(32, { message: 'APP_KEY must be at least 32 characters' })
  @IsString({ message: 'APP_KEY must be set in production (at least 32 characters)' })
  APP_KEY?: string;

  @Transform(toList)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { each: true })
  TRUSTED_ORIGINS: string[] = [];

  @Transform(toList)
  @IsString({ each: true })
  TRUSTED_PROXIES: string[] = [];

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  // PostgreSQL itself, when DATABASE_URL goes through a pooler in transaction mode (PgBouncer): what
  // needs one session for longer than a transaction (migrations and the advisory locks around them and
  // around periodic jobs, the change listener's LISTEN) connects here instead. With it set, nothing
  // on DATABASE_URL relies on a session: no named prepared statements, no startup options.
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_DIRECT_URL must be a postgres:// URL' })
  DATABASE_DIRECT_URL?: string;

  @IsString()
  DATA_DIR = './data';

  // The built web UI (index.html and assets/) the panel serves; by default dist/web beside the built
  // server. A directory without index.html serves no web UI (API only).
  @IsOptional()
  @IsString()
  WEB_DIR?: string;

  // Where the embedded database lives when DATABASE_URL is unset; `memory://` keeps it in memory.
  @IsOptional()
  @IsString()
  PGLITE_DIR?: string;

  @Transform(toBoolean)
  @IsBoolean()
  DB_RUN_MIGRATIONS = true;

  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_MAX = 10;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /**
   * `json` (one object a line, for log collectors), `pretty` (readable coloured lines) or `auto`: pretty
   * on a terminal outside production, JSON everywhere else.
   */
  @IsIn(LOG_FORMATS)
  LOG_FORMAT: (typeof LOG_FORMATS)[number] = 'auto';

  @Transform(toBoolean)
  @IsBoolean()
  REGISTRATION_ENABLED = false;

  /** The panel's name as its pages show it (GET /api/settings). */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  APP_NAME = 'Hatchery';

  /** Serves the API reference at /api/docs (Swagger UI), /api/docs.json and /api/docs.yaml. */
  @Transform(toBoolean)
  @IsBoolean()
  API_DOCS_ENABLED = true;

  // On SIGTERM/SIGINT the panel first answers GET /api/health with 503 for this long while it goes on
  // serving, so that a load balancer's health checks take it out before it stops taking connections
  // (rolling restarts of several processes). At least the balancer's check interval times its fall count.
  @Transform(toNumber)
  @IsNumber()
  @Min(0)
  @Max(120)
  SHUTDOWN_DRAIN_SECONDS = 0;

  // Prometheus (docs/configuration.md#metrics): GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`,
  // and is not there (404) while this is unset. At least 16 characters: a scrape credential, not a password.
  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string;

  // One series per server (CPU, memory, disk, network of its last sample) besides the fleet's; off, so
  // that 100,000 servers do not make a million series unless asked.
  @Transform(toBoolean)
  @IsBoolean()
  METRICS_PER_SERVER = false;

  // Off only for development: the limits of docs/api.md#rate-limits apply to every route but the daemon's.
  @Transform(toBoolean)
  @IsBoolean()
  RATE_LIMIT_ENABLED = true;

  // Where rate-limit counters live when several panel processes share them; memory when unset.
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  // The cost of argon2id password hashes (RFC 9106's second recommendation by default: 64 MiB, 3
  // passes, 4 lanes). Hashes keep their own parameters, so a change applies to passwords set after it.
  // The test suite lowers them: its thousands of sign-ins test the flow, not the hash's strength.
  @Transform(toNumber)
  @IsInt()
  @Min(1024)
  @Max(4_194_304)
  PASSWORD_HASH_MEMORY_KIB = 65_536;

  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(32)
  PASSWORD_HASH_TIME_COST = 3;

  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(16)
  PASSWORD_HASH_PARALLELISM = 4;

  // The largest file the file manager opens as text (GET /files/contents); larger ones are downloaded.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1024)
  FILE_EDIT_MAX_MB = 4;

  // Lets user-supplied URLs (pull from URL, egg import from URL) reach private, loopback and
  // link-local addresses. For development and tests with a local file host; refused in production.
  @Transform(toBoolean)
  @IsBoolean()
  OUTBOUND_ALLOW_PRIVATE = false;

  // The egg gallery (Admin → Eggs → Gallery): comma-separated URLs of PTDL egg documents the panel
  // fetches (with the egg-import address rules) to list them by name and description and import them.
  // Unset: Pterodactyl's 14 stock eggs on raw.githubusercontent.com; `none`: no gallery.
  @Transform((arg) => (typeof arg.value === 'string' && arg.value.trim().toLowerCase() === 'none' ? [] : toList(arg)))
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { each: true, message: 'EGG_GALLERY_URLS must be a comma-separated list of http(s) URLs' })
  EGG_GALLERY_URLS: string[] = [...STOCK_EGG_URLS];

  // A server's backup limit of 0 disables backups there; with this set, 0 means no limit instead.
  @Transform(toBoolean)
  @IsBoolean()
  BACKUP_LIMIT_ZERO_UNLIMITED = false;

  // S3 backups (docs/backup-hosts.md). How long each presigned part URL handed to Wings stays valid:
  // Wings uploads the parts one after the other, so the last one is used only after all the others
  // (6 hours covers about 200 GB at 10 MB/s). SigV4 allows at most 7 days.
  @Transform(toNumber)
  @IsInt()
  @Min(900)
  @Max(604_800)
  BACKUP_S3_PART_URL_TTL_SECONDS = 21_600;

  // How long a download link of an S3 backup (and the link a restore hands to Wings) stays valid.
  @Transform(toNumber)
  @IsInt()
  @Min(60)
  @Max(43_200)
  BACKUP_S3_DOWNLOAD_URL_TTL_SECONDS = 900;

  // Unfinished multipart uploads older than this are aborted by the periodic cleanup and their backups
  // marked failed; it must be longer than BACKUP_S3_PART_URL_TTL_SECONDS, or uploads under way could be cut.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(8760)
  @ValidateBy(
    {
      name: 'longerThanPartUrls',
      validator: { validate: (v: unknown, args) => typeof v !== 'number' || v * 3600 > (args!.object as EnvSchema).BACKUP_S3_PART_URL_TTL_SECONDS },
    },
    { message: 'BACKUP_S3_STALE_UPLOAD_HOURS must be longer than BACKUP_S3_PART_URL_TTL_SECONDS' },
  )
  BACKUP_S3_STALE_UPLOAD_HOURS = 24;

  // How often each panel process looks for stale uploads (one process at a time does it); runs when SCHEDULER_ENABLED.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1440)
  BACKUP_S3_CLEANUP_INTERVAL_MINUTES = 60;

  // Log retention (docs/configuration.md#log-retention): days each category of the audit log and of the
  // server activity log is kept, 0 for ever. A periodic sweep deletes what is older.
  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(36_500)
  AUDIT_RETENTION_DAYS = 365;

  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(36_500)
  AUDIT_SECURITY_RETENTION_DAYS = 730;

  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(36_500)
  ACTIVITY_RETENTION_DAYS = 90;

  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(36_500)
  ACTIVITY_SECURITY_RETENTION_DAYS = 365;

  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(36_500)
  ACTIVITY_CONSOLE_RETENTION_DAYS = 30;

  // How often one panel process sweeps (an advisory lock); runs when SCHEDULER_ENABLED.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1440)
  LOG_RETENTION_INTERVAL_MINUTES = 60;

  // The embedded database has no autovacuum: how often the panel looks for its tables that need a
  // vacuum or new statistics, by autovacuum's own thresholds (docs/configuration.md#the-embedded-database).
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1440)
  EMBEDDED_VACUUM_INTERVAL_MINUTES = 5;

  // Usage history (docs/configuration.md#usage-history): how often one panel process reads every node's
  // server list (one call per node) for the history, and how long a node has to answer.
  @Transform(toNumber)
  @IsInt()
  @Min(10)
  @Max(3600)
  USAGE_SAMPLE_INTERVAL_SECONDS = 60;

  @Transform(toNumber)
  @IsInt()
  @Min(1000)
  @Max(60_000)
  USAGE_SAMPLE_TIMEOUT_MS = 10_000;

  // Rows deleted per statement; each batch commits on its own, so writers never wait long.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(100_000)
  LOG_RETENTION_BATCH_SIZE = 5000;

  // How long a cached credential, server, allocation list or subuser grant may be served at most; 0
  // turns the caches off. Changes invalidate them at once; this only bounds a missed invalidation.
  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(86_400)
  HOT_CACHE_TTL_SECONDS = 60;

  // How long a console WebSocket token lives (docs/wings.md#console-tokens); the browser renews it
  // before it ends, so tests set a few seconds to see renewals happen.
  @Transform(toNumber)
  @IsInt()
  @Min(5)
  @Max(86_400)
  CONSOLE_TOKEN_TTL_SECONDS = 900;

  // Entries per cache (API keys, sessions, servers, allocation lists, subuser grants).
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  HOT_CACHE_MAX_ENTRIES = 5_000;

  // How often the live-status WebSocket asks each watched node for its servers (one call per node).
  @Transform(toNumber)
  @IsInt()
  @Min(100)
  @Max(300_000)
  LIVE_STATUS_INTERVAL_MS = 5_000;

  // How long a node may take to answer that call before its servers are reported unreachable.
  @Transform(toNumber)
  @IsInt()
  @Min(100)
  @Max(60_000)
  LIVE_STATUS_TIMEOUT_MS = 5_000;

  // Live-status WebSockets one account may hold open at once, over all its sessions and API keys; one more is
  // closed at once with 4429 (a dashboard tab holds one).
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1_000)
  LIVE_STATUS_MAX_SOCKETS_PER_USER = 10;

  @IsOptional()
  @IsEmail()
  ADMIN_EMAIL?: string;

  @ValidateIf((env: EnvSchema) => env.ADMIN_EMAIL !== undefined)
  @MinLength(8, { message: 'ADMIN_PASSWORD must be at least 8 characters' })
  @IsString({ message: 'ADMIN_PASSWORD must be set when ADMIN_EMAIL is set' })
  ADMIN_PASSWORD?: string;

  @IsOptional()
  @Matches(/^[a-z0-9_.-]{1,191}$/, { message: 'ADMIN_USERNAME may hold a-z, 0-9, _, . and - (1 to 191)' })
  ADMIN_USERNAME?: string;

  // The schedule runner's periodic tick; on unless NODE_ENV=test, where tests drive the runner themselves.
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  SCHEDULER_ENABLED?: boolean;

  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(300)
  SCHEDULER_TICK_SECONDS = 10;

  // A claim whose holder has not checked in for this long is taken to be from a crashed process.
  @Transform(toNumber)
  @IsInt()
  @Min(5)
  @Max(86_400)
  SCHEDULER_STALE_CLAIM_SECONDS = 300;

  // How many due schedules one process claims per query.
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  SCHEDULER_BATCH_SIZE = 50;

  // The most schedule runs one process has under way at once: a process claims no more than that, and
  // leaves the rest of a storm of due schedules to the other processes (and to its own next ticks).
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(100_000)
  SCHEDULER_MAX_RUNNING = 500;

  // A transfer that has not moved for this long is failed and undone (Wings reports only its end); six hours by default.
  @Transform(toNumber)
  @IsInt()
  @Min(60)
  @Max(7 * 24 * 3600)
  TRANSFER_TIMEOUT_S = 21_600;
  // CAPTCHA on sign-in, sign-up and forget-password; unset = no CAPTCHA.
  @IsOptional()
  @IsIn(CAPTCHA_PROVIDERS, { message: 'CAPTCHA_PROVIDER must be turnstile, hcaptcha or recaptcha (or unset for no CAPTCHA)' })
  CAPTCHA_PROVIDER?: CaptchaProvider;

  // The public key the sign-in page renders the widget with; the panel hands it out, never needs it.
  @IsOptional()
  @IsString()
  @MaxLength(512)
  CAPTCHA_SITE_KEY?: string;

  @ValidateIf((env: EnvSchema) => env.CAPTCHA_PROVIDER !== undefined)
  @MaxLength(512)
  @IsString({ message: 'CAPTCHA_SECRET_KEY must be set when CAPTCHA_PROVIDER is set' })
  CAPTCHA_SECRET_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'CAPTCHA_VERIFY_URL must be an http(s) URL' })
  CAPTCHA_VERIFY_URL?: string;

  // reCAPTCHA v3 only: the lowest score that passes.
  @Transform(toNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0' })
  @Min(0, { message: 'CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0' })
  @Max(1, { message: 'CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0' })
  CAPTCHA_MIN_SCORE = 0.5;

  @Transform(toNumber)
  @IsInt()
  @Min(100)
  @Max(60_000)
  CAPTCHA_TIMEOUT_MS = 5_000;

  // smtp://user:pass@host:587 (STARTTLS when offered) or smtps://...:465; unset = no e-mail is sent.
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['smtp', 'smtps'], require_protocol: true }, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional()
  @Matches(MAIL_ADDRESS, { message: 'MAIL_FROM must be an address, or "Name <address>"' })
  MAIL_FROM?: string;
}
