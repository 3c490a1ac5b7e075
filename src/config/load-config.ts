import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { EnvSchema } from 'src/config/env.schema';

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

/** Every variable of EnvSchema, those without a default included. */
const ENV_KEYS = [
  ...Object.keys(new EnvSchema()),
  'APP_KEY',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'PGLITE_DIR',
  'WEB_DIR',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'ADMIN_USERNAME',
  'REDIS_URL',
  'SCHEDULER_ENABLED',
  'CAPTCHA_PROVIDER',
  'CAPTCHA_SITE_KEY',
  'CAPTCHA_SECRET_KEY',
  'CAPTCHA_VERIFY_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'METRICS_TOKEN',
];

const flatten = (errors: ValidationError[]): string[] =>
  errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));

/** Parses and validates the environment. Throws one error listing every bad variable. */
export const validateEnv = (env: Record<string, string | undefined>): EnvSchema => {
  const relevant: Record<string, string> = {};
  for (const key of ENV_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') {
      relevant[key] = value;
    }
  }
  const parsed = plainToInstance(EnvSchema, relevant);
  const problems = flatten(validateSync(parsed, { skipMissingProperties: false, stopAtFirstError: true }));
  if (parsed.NODE_ENV === 'production' && parsed.OUTBOUND_ALLOW_PRIVATE === true) {
    problems.push('OUTBOUND_ALLOW_PRIVATE: OUTBOUND_ALLOW_PRIVATE must not be true in production (it lets users reach private networks)');
  }
  if (problems.length > 0) {
    throw new ConfigValidationError(problems);
  }
  return parsed;
};

/**
 * Development convenience: without APP_KEY, a random key is kept in DATA_DIR so that
 * encrypted columns survive restarts. Production refuses to boot instead (see EnvSchema).
 */
export const resolveDevAppKey = (dataDir: string): string => {
  const dir = resolve(dataDir);
  const file = join(dir, 'app-key');
  if (existsSync(file)) {
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
};
