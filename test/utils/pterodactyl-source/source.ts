import { randomBytes } from 'node:crypto';
import { Connection, createConnection, QueryResult, RowDataPacket } from 'mysql2/promise';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { PterodactylTable, pterodactylSchema } from 'test/utils/pterodactyl-source/schema';

/** A Pterodactyl 1.11 database of its own on the test MariaDB. */
export interface PterodactylSource {
  /** The database's name, `ptero_<random>`. */
  database: string;
  /** The table prefix (Pterodactyl's DB_PREFIX), '' by default. */
  prefix: string;
  /** `mysql://user[:password]@host:port/<database>` of the test MariaDB's admin account: what `--from` takes. */
  url: string;
  /** A root connection to the database: multipleStatements off, session time zone UTC. */
  connection: Connection;
  /** A table's name with the prefix, back-quoted for SQL: `` `pt_users` ``. */
  table(name: PterodactylTable): string;
  query<T extends QueryResult = RowDataPacket[]>(sql: string, values?: unknown[]): Promise<T>;
  /** Runs `cleanup` on drop(), before the database is dropped (the seeders register the customer databases they create). */
  onDrop(cleanup: () => Promise<void>): void;
  /** Drops what the seeders made on database hosts, drops the database and closes the connection. */
  drop(): Promise<void>;
}

const mysqlUrl = (database: string): string => {
  const { host, port, user, password } = testMySqlAccount();
  const auth = encodeURIComponent(user) + (password ? `:${encodeURIComponent(password)}` : '');
  return `mysql://${auth}@${host.includes(':') ? `[${host}]` : host}:${port}/${database}`;
};

/**
 * Makes a new database `ptero_<random>` on the test MariaDB (testMySqlAccount()) and builds
 * Pterodactyl 1.11's tables in it (schema.ts), with `options.prefix` on every table name.
 */
export const createPterodactylSource = async (options: { prefix?: string } = {}): Promise<PterodactylSource> => {
  const prefix = options.prefix ?? '';
  const statements = pterodactylSchema(prefix);
  const database = `ptero_${randomBytes(6).toString('hex')}`;
  const { host, port, user, password } = testMySqlAccount();
  const admin = await createConnection({ host, port, user, password, connectTimeout: 5_000 });
  try {
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
  const connection = await createConnection({
    host,
    port,
    user,
    password,
    database,
    multipleStatements: false,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    connectTimeout: 5_000,
  });
  connection.on('error', () => undefined);
  await connection.query("SET time_zone = '+00:00'");
  const cleanups: (() => Promise<void>)[] = [];
  const source: PterodactylSource = {
    database,
    prefix,
    url: mysqlUrl(database),
    connection,
    table: (name) => `\`${prefix}${name}\``,
    query: async <T extends QueryResult = RowDataPacket[]>(sql: string, values: unknown[] = []): Promise<T> => {
      const [result] = await connection.query<T>({ sql, values });
      return result;
    },
    onDrop: (cleanup) => {
      cleanups.push(cleanup);
    },
    drop: async () => {
      const errors: unknown[] = [];
      for (const cleanup of cleanups.splice(0).reverse()) {
        await cleanup().catch((e: unknown) => errors.push(e));
      }
      await connection.end().catch(() => connection.destroy());
      // A connection of its own: the source's may have been broken by the test.
      const dropper = await createConnection({ host, port, user, password, connectTimeout: 5_000 });
      try {
        await dropper.query(`DROP DATABASE IF EXISTS \`${database}\``);
      } finally {
        await dropper.end();
      }
      if (errors.length > 0) {
        throw new AggregateError(errors, `dropping ${database}: ${errors.length} cleanup(s) failed`);
      }
    },
  };
  try {
    for (const statement of statements) {
      await connection.query(statement);
    }
  } catch (e) {
    await source.drop().catch(() => undefined);
    throw e;
  }
  return source;
};
