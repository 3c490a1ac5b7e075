import { resolve } from 'node:path';

/** The repository's root: where a panel process runs. */
export const PANEL_ROOT = resolve(__dirname, '..', '..');

const { serverBuildIsCurrent } = require('../../scripts/build-inputs.cjs') as { serverBuildIsCurrent: () => boolean };

let current: boolean | undefined;

/**
 * The node arguments that run `src/<entry>.ts` as its own process: the built `dist/<entry>.js` when dist/
 * is the build of these very sources (`npm test` builds first: a start then takes a second, not the
 * ten ts-node spends compiling the panel), else the sources through ts-node.
 */
export const panelEntry = (entry: 'main' | 'cli'): string[] => {
  current ??= serverBuildIsCurrent();
  return current ? [`dist/${entry}.js`] : ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', `src/${entry}.ts`];
};
