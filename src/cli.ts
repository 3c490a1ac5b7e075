import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { ClockModule } from 'src/common/clock.module';
import { PanelEventsModule } from 'src/common/events/panel-events';
import { HotCacheModule } from 'src/common/hot-cache/hot-cache.module';
import { AppConfigModule } from 'src/config/config.module';
import { DatabaseModule } from 'src/database/database.module';
import { backupS3FromEnv, PterodactylImporter } from 'src/import/pterodactyl/importer';
import { StreamProgress } from 'src/import/pterodactyl/progress';
import { validateCliUser } from 'src/modules/users/cli-user';
import { AdminRolesModule } from 'src/modules/roles/admin-roles.module';
import { UsersModule } from 'src/modules/users/users.module';
import { UsersService } from 'src/modules/users/users.service';
import { errorMessage } from 'src/common/errors/error-message';

@Module({ imports: [AppConfigModule, ClockModule, PanelEventsModule, DatabaseModule, HotCacheModule, AdminRolesModule, UsersModule] })
class CliModule {}

/** The importer writes through the data source alone; it needs the migrations run and the secret box. */
@Module({ imports: [AppConfigModule, DatabaseModule], providers: [SecretBox] })
class ImportModule {}

/** Reads one line from the terminal without showing what is typed. */
const askHidden = async (prompt: string): Promise<string> => {
  let muted = false;
  // readline echoes each key through its output: past the prompt, that echo is swallowed.
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) {
        process.stdout.write(chunk);
      }
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(prompt);
    muted = true;
    return await answer;
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
};

/** A password typed twice, hidden; empty for a generated one. */
const askPassword = async (): Promise<string> => {
  const password = await askHidden('Password (leave empty to generate one): ');
  if (password !== '' && (await askHidden('The same password again: ')) !== password) {
    throw new Error('the two passwords differ; nothing was created');
  }
  return password;
};

const program = new Command('hatchery').description('Hatchery administration commands');

program
  .command('user:create')
  .description('Create a user (use --admin for an administrator)')
  .requiredOption('--email <email>', 'e-mail address')
  .requiredOption('--username <username>', 'username (a-z, 0-9, _, . and -)')
  .option('--name <name>', 'display name', '')
  .option('--password <password>', 'password (prompted, or generated and printed, when absent)')
  .option('--admin', 'make the user an administrator', false)
  .action(async (opts: { email: string; username: string; name: string; password?: string; admin: boolean }) => {
    let password = opts.password ?? (process.stdin.isTTY ? await askPassword() : '');
    const generated = password === '';
    if (generated) {
      password = randomBytes(18).toString('base64url');
    }
    const dto = await validateCliUser({ email: opts.email, username: opts.username, name: opts.name, password, admin: opts.admin });
    const app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
    try {
      const user = await app.get(UsersService).create(dto);
      process.stdout.write(`Created ${user.admin ? 'administrator' : 'user'} ${user.username} <${user.email}> (id ${user.id})\n`);
      if (generated) {
        process.stdout.write(`Generated password: ${password}\n`);
      }
    } finally {
      await app.close();
    }
  });

program
  .command('import:pterodactyl')
  .description('Import a Pterodactyl 1.x panel into this empty Hatchery (docs/migrate-from-pterodactyl.md)')
  .requiredOption('--from <url>', "the old panel's database, read only: mysql://user:password@host:3306/panel")
  .requiredOption('--app-key <key>', "the APP_KEY of the old panel's .env (base64:…), to open its encrypted values")
  .option('--dry-run', 'read everything and open every secret, print the report, write nothing', false)
  .option('--skip-activity', 'leave the activity log behind (it can be very large)', false)
  .option('--prefix <prefix>', "the old panel's DB_PREFIX (found by itself when there is one)")
  .option('--backup-env <file>', "the old panel's .env: its S3 settings become a backup host, and its S3 backups are imported")
  .option('--json', 'print the report as JSON', false)
  .action(async (opts: { from: string; appKey: string; dryRun: boolean; skipActivity: boolean; prefix?: string; backupEnv?: string; json: boolean }) => {
    const backupS3 = opts.backupEnv ? backupS3FromEnv(await readFile(opts.backupEnv, 'utf8')) : undefined;
    const app = await NestFactory.createApplicationContext(ImportModule, { logger: false, abortOnError: false });
    try {
      const importer = new PterodactylImporter(app.get(DataSource), app.get(SecretBox), new StreamProgress(process.stderr));
      const report = await importer.run({ from: opts.from, appKey: opts.appKey, dryRun: opts.dryRun, skipActivity: opts.skipActivity, prefix: opts.prefix, backupS3 });
      process.stdout.write(opts.json ? `${JSON.stringify(report.toJSON(), null, 2)}\n` : report.format());
    } finally {
      await app.close();
    }
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`error: ${errorMessage(err)}\n`);
  process.exit(1);
});
