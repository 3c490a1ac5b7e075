// `npm run typecheck`: the server's types, then the web UI's against the API the server describes now.
// The web client's types (web/src/api/schema.d.ts) are generated from the built panel's OpenAPI
// document, so the server is built first (only when its sources changed: scripts/build.mjs keeps a
// content hash) and the file written again when the document changed. A response field renamed on the
// server then fails here, in the web file that reads it, not in the browser.
//
// Both checks run TypeScript 7, the native compiler (the `typescript-7` package): on two cores shared with
// the tests it took the step from about 290 s to about 40 s. nest build and ts-jest stay on TypeScript 5,
// whose API they are built on (tsconfig.build.json), and nest build still checks src/ with it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
};

run(tsc, ['--noEmit', '-p', 'tsconfig.json']);
run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--server']);
run(process.execPath, [join(root, 'web', 'scripts', 'gen-api.mjs')]);
run(tsc, ['--noEmit', '-p', 'web/tsconfig.json']);
