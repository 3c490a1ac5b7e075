import './register-paths';

export default async function globalTeardown(): Promise<void> {
  const { dropTestDatabases } = require('test/setup/drop-test-databases') as typeof import('test/setup/drop-test-databases');
  await dropTestDatabases();
}
