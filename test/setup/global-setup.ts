import './register-paths';

export default async function globalSetup(): Promise<void> {
  // Required after the path hook is installed; a static import would be hoisted above it.
  const { prepareTemplate } = require('test/setup/prepare-template') as typeof import('test/setup/prepare-template');
  const { probeMariaDb } = require('test/setup/mariadb-env') as typeof import('test/setup/mariadb-env');
  await prepareTemplate();
  await probeMariaDb();
}
