import { randomInt } from 'node:crypto';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { mariadbStatus, testMySqlAccount } from 'test/setup/mariadb-env';
import { isCi } from 'test/setup/test-env';
import type { TestApp } from 'test/utils/create-test-app';

/**
 * Whether the MariaDB tests of a file run. Skipped, with the reason printed, only outside CI; in
 * CI a missing MariaDB fails the file (global setup has already failed the run).
 */
export const mariadbAvailable = (): boolean => {
  if (mariadbStatus() === 'available') {
    return true;
  }
  if (isCi()) {
    throw new Error(`MariaDB is required in CI: ${mariadbStatus()}`);
  }
  process.stdout.write(`[hatchery tests] skipping the MariaDB tests: ${mariadbStatus()}\n`);
  return false;
};

/** A host create body for the test MariaDB, as the admin API takes it. */
export const testHostBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => {
  const { host, port, user, password } = testMySqlAccount();
  return { name: `mariadb-${randomInt(1e9)}`, host, port, username: user, password, ...overrides };
};

/** The test MariaDB seen as its admin account: what exists there, and connections as customer users. */
export class MariaDb {
  private constructor(private readonly root: Connection) {}

  static async connect(): Promise<MariaDb> {
    const { host, port, user, password } = testMySqlAccount();
    return new MariaDb(await createConnection({ host, port, user, password, connectTimeout: 5_000 }));
  }

  async query<T extends RowDataPacket[]>(sql: string, values: unknown[] = []): Promise<T> {
    const [rows] = await this.root.query<T>({ sql, values });
    return rows;
  }

  /** Through information_schema, as the "done" asks. */
  async databaseExists(name: string): Promise<boolean> {
    return (await this.query('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [name])).length > 0;
  }

  /** The hosts a user name exists for, through mysql.user. */
  async userHosts(name: string): Promise<string[]> {
    return (await this.query<(RowDataPacket & { Host: string })[]>('SELECT Host FROM mysql.user WHERE User = ? ORDER BY Host', [name])).map((r) => r.Host);
  }

  async grantsOf(user: string, host: string): Promise<string[]> {
    const rows = await this.query<RowDataPacket[]>('SHOW GRANTS FOR ?@?', [user, host]);
    return rows.map((r) => String(Object.values(r)[0]));
  }

  /** A connection as a customer user (`outcome` 'ok'), or the error code that refused it. */
  async connectAs(user: string, password: string, database?: string): Promise<{ outcome: string; connection?: Connection }> {
    const { host, port } = testMySqlAccount();
    try {
      const connection = await createConnection({ host, port, user, password, database, connectTimeout: 5_000 });
      connection.on('error', () => undefined);
      return { outcome: 'ok', connection };
    } catch (e) {
      return { outcome: (e as { code?: string }).code ?? String(e) };
    }
  }

  /** Connects as the user, runs `fn`, and closes the connection again. */
  async as<T>(user: string, password: string, database: string, fn: (c: Connection) => Promise<T>): Promise<T> {
    const { outcome, connection } = await this.connectAs(user, password, database);
    if (!connection) {
      throw new Error(`could not connect as ${user}: ${outcome}`);
    }
    try {
      return await fn(connection);
    } finally {
      await connection.end().catch(() => connection.destroy());
    }
  }

  /** Databases and users whose names belong to these server ids (`s{id}_*`, `u{id}_*`). */
  async leftoversOf(serverIds: string[]): Promise<{ databases: string[]; users: string[] }> {
    const databases = await this.query<(RowDataPacket & { n: string })[]>(`SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP '^s[0-9]+_'`);
    const users = await this.query<(RowDataPacket & { n: string })[]>(`SELECT DISTINCT User AS n FROM mysql.user WHERE User REGEXP '^u[0-9]+_'`);
    const ours = (prefix: string) => (name: string) => serverIds.some((id) => name.startsWith(`${prefix}${id}_`));
    return { databases: databases.map((r) => r.n).filter(ours('s')), users: users.map((r) => r.n).filter(ours('u')) };
  }

  /** Drops every database and user of these server ids: afterAll cleanup of a test file. */
  async dropLeftoversOf(serverIds: string[]): Promise<void> {
    const { databases, users } = await this.leftoversOf(serverIds);
    for (const name of databases) {
      await this.root.query(`DROP DATABASE IF EXISTS \`${name}\``);
    }
    for (const name of users) {
      for (const host of await this.userHosts(name)) {
        await this.root.query('DROP USER IF EXISTS ?@?', [name, host]);
      }
    }
  }

  async close(): Promise<void> {
    await this.root.end();
  }
}

/**
 * Each test file has its own panel database whose server ids start at 1, but all of them share the
 * one MariaDB: `s1_main` of one file would be `s1_main` of another. This moves the file's server id
 * sequence to a random block of a thousand ids (7 digits) that nothing on the host uses yet; returns
 * the block's first id.
 */
export const reserveServerIds = async (t: TestApp, mariadb: MariaDb): Promise<number> => {
  for (;;) {
    const base = 1_000_000 + randomInt(8_000) * 1_000;
    const ids = Array.from({ length: 1_000 }, (_v, i) => String(base + i));
    const { databases, users } = await mariadb.leftoversOf(ids);
    if (databases.length === 0 && users.length === 0) {
      await t.app.get(DataSource).query(`SELECT setval(pg_get_serial_sequence('server', 'id'), $1)`, [base]);
      return base + 1;
    }
  }
};
