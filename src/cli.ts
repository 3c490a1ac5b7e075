import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { ClockModule } from 'src/common/clock.module';
import { HotCacheModule } from 'src/common/hot-cache/hot-cache.module';
import { AppConfigModule } from 'src/config/config.module';
import { ConfigValidationError } from 'src/config/load-config';
import { DatabaseModule } from 'src/database/database.module';
import { validateCliUser } from 'src/modules/users/cli-user';
import { UsersModule } from 'src/modules/users/users.module';
import { UsersService } from 'src/modules/users/users.service';

@Module({ imports: [AppConfigModule, ClockModule, DatabaseModule, HotCacheModule, UsersModule] })
class CliModule {}

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

program.parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof ConfigValidationError || err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
});
