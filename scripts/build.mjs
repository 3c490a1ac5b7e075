// `npm run build` (run by `npm start`, `npm run cli`, `npm test`): builds the server (nest build →
// dist/) and the web UI (vite build → dist/web), each only when its inputs changed since the last
// build. A content hash of the inputs is kept in dist/.build-stamp.json, so a start with unchanged
// sources skips both (about a second instead of a minute). `--force` rebuilds everything; `--server`
// builds the server alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import inputs from './build-inputs.cjs';

const { at, STAMP, hashOf, serverInputs, webInputs, readStamp, root } = inputs;
const force = process.argv.includes('--force');
// `--server`: the server only (`npm run typecheck` generates the web UI's API types from it).
const serverOnly = process.argv.includes('--server');

const run = (label, command, args) => {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`build: ${label} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
};

const bin = (name) => at('node_modules', '.bin', name);
let stamp = force ? {} : readStamp();

const server = hashOf(serverInputs());
if (stamp.server !== server || !existsSync(at('dist', 'main.js'))) {
  // nest build empties dist/ first (deleteOutDir, so no output of a deleted source lingers): the web
  // build is set aside and put back.
  const web = at('dist', 'web');
  const aside = at('node_modules', '.cache', 'hatchery', 'web-build-aside');
  rmSync(aside, { recursive: true, force: true });
  const kept = existsSync(web);
  if (kept) {
    // npm ci empties node_modules, its .cache included
    mkdirSync(dirname(aside), { recursive: true });
    renameSync(web, aside);
  }
  run('server (nest build)', bin('nest'), ['build']);
  if (kept) {
    renameSync(aside, web);
  }
  stamp = { ...stamp, server };
  writeFileSync(STAMP, JSON.stringify(stamp, null, 2));
} else {
  process.stdout.write('build: server is up to date\n');
}

if (serverOnly) {
  process.exit(0);
}

const webHash = hashOf(webInputs());
if (stamp.web !== webHash || !existsSync(at('dist', 'web', 'index.html'))) {
  run('web UI (vite build)', bin('vite'), ['build', '--logLevel', 'warn', '-c', 'web/vite.config.mts']);
  stamp = { ...stamp, web: webHash };
  writeFileSync(STAMP, JSON.stringify(stamp, null, 2));
} else {
  process.stdout.write('build: web UI is up to date\n');
}

// Quick when the template of this PGlite version exists already (it checks that itself).
run('embedded database template', process.execPath, [at('dist', 'database', 'pglite-template.js')]);
