import './register-paths';

export default async function globalSetup(): Promise<void> {
  // Required after the path hook is installed; a static import would be hoisted above it.
  const { prepareTemplate }: typeof import('test/setup/prepare-template') = require('test/setup/prepare-template');
  const { probeMariaDb }: typeof import('test/setup/mariadb-env') = require('test/setup/mariadb-env');
  const { preparePgliteTemplate }: typeof import('test/setup/pglite-template') = require('test/setup/pglite-template');
  await Promise.all([prepareTemplate(), preparePgliteTemplate()]);
  await probeMariaDb();
}
