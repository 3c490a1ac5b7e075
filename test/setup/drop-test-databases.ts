import { PG_STATUS_ENV, templateDb, testDbPrefix, withAdminClient } from 'test/setup/test-env';

export async function dropTestDatabases(): Promise<void> {
  if (process.env[PG_STATUS_ENV] !== 'available') {
    return;
  }
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      testDbPrefix(),
    ]);
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await client.query(`DROP DATABASE IF EXISTS ${templateDb()} WITH (FORCE)`);
  });
}
