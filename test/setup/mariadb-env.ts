import { createConnection } from 'mysql2/promise';
import { isCi } from 'test/setup/test-env';

/** The MySQL/MariaDB server the database-host tests use, as its admin account. */
const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const MYSQL_STATUS_ENV = 'HATCHERY_TEST_MYSQL';

interface MySqlAccount {
  host: string;
  port: number;
  user: string;
  password: string;
}

export const testMySqlAccount = (): MySqlAccount => {
  const url = new URL(TEST_MYSQL_URL);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
};

/** Whether global setup reached MariaDB; 'unavailable: <reason>' otherwise. */
export const mariadbStatus = (): string => process.env[MYSQL_STATUS_ENV] ?? 'unavailable: global setup did not run';

/**
 * Global setup: can the tests sign in to MariaDB? In CI a missing server fails the run; elsewhere
 * the MariaDB tests skip with the reason printed.
 */
export async function probeMariaDb(): Promise<void> {
  const { host, port, user, password } = testMySqlAccount();
  try {
    const connection = await createConnection({ host, port, user, password, connectTimeout: 3_000 });
    await connection.end();
    process.env[MYSQL_STATUS_ENV] = 'available';
  } catch (e) {
    const reason = `MariaDB at ${host}:${port} is not reachable as ${user} (${(e as Error).message})`;
    if (isCi()) {
      throw new Error(`${reason}. CI requires it: start MariaDB (see .ci/run).`);
    }
    process.env[MYSQL_STATUS_ENV] = `unavailable: ${reason}`;
    process.stdout.write(`\n[hatchery tests] ${reason}: the MariaDB database-host tests will be SKIPPED.\n`);
  }
}
