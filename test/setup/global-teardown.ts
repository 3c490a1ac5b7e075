import './register-paths';

export default async function globalTeardown(): Promise<void> {
  const { dropTestDatabases }: typeof import('test/setup/drop-test-databases') = require('test/setup/drop-test-databases');
  const { removePgliteCopies }: typeof import('test/setup/pglite-template') = require('test/setup/pglite-template');
  removePgliteCopies();
  await dropTestDatabases();
}
