/**
 * A Pterodactyl Panel 1.11 database on the test MariaDB, for the tests of `import:pterodactyl`:
 *
 *   const source = await createPterodactylSource({ prefix: 'pt_' });
 *   const panel = await seedPanel(source, { appKey, nodes: [{ fqdn: '127.0.0.1', scheme: 'http', daemonListen: port }], databaseHost });
 *   // … npm run cli -- import:pterodactyl --from source.url --app-key appKey …
 *   await source.drop();
 *
 * schema.ts holds the DDL (docs/pterodactyl-source-schema.md (its final table definitions)), seed-panel.ts a small complete
 * panel with every plaintext returned, seed-at-scale.ts a big one for the benchmark.
 */
export { createPterodactylSource } from 'test/utils/pterodactyl-source/source';
export type { PterodactylSource } from 'test/utils/pterodactyl-source/source';
export { seedPanel } from 'test/utils/pterodactyl-source/seed-panel';
export type { SeededPanel } from 'test/utils/pterodactyl-source/seed-panel';
export { seedAtScale } from 'test/utils/pterodactyl-source/seed-at-scale';
