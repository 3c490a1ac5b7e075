import './register-paths';

export default async function globalTeardown(): Promise<void> {
  const { dropTestDatabases }: typeof import('test/setup/drop-test-databases') = require('test/setup/drop-test-databases');
  await dropTestDatabases();
}
