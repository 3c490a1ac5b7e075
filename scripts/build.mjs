// `npm run build` (run by `npm start`, `npm run cli`, `npm test`): builds the server (nest build →
// dist/) and the web UI (vite build → dist/web), each only when its inputs changed since the last
// build. A content hash of the inputs is kept in dist/.build-stamp.json, so a start with unchanged
// sources skips both (about a second instead of a minute). `--force` rebuilds everything; `--server`
// builds the server alone.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import inputs from './build-inputs.cjs';

const { at, STAMP, hashOf, serverInputs, webInputs, readStamp, root } = inputs;
const force = process.argv.includes('--force');
// `--server`: the server only (`npm run typecheck` generates the web UI's API types from it).
const serverOnly = process.argv.includes('--server');

/** Runs a build step; resolves when it succeeded, and ends this script when it failed. */
const run = (label, command, args, env = process.env) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.on('close', (code) => {
      if (code !== 0) {
        process.stderr.write(`build: ${label} failed\n`);
        process.exit(code ?? 1);
      }
      process.stdout.write(`build: ${label} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve();
    });
  });

const bin = (name) => at('node_modules', '.bin', name);
// Quick when the template of this PGlite version exists already (it checks that itself).
const template = () => run('embedded database template', process.execPath, [at('dist', 'database', 'pglite-template.js')]);
// NODE_ENV=production whoever builds: vite keeps a NODE_ENV it finds, and Jest's (test) made a
// development bundle (React's jsx-dev-runtime, 45 KB more) when a test ran the build.
const viteBuild = (outDir) =>
  run('web UI (vite build)', bin('vite'), ['build', '--logLevel', 'warn', '-c', 'web/vite.config.mts', ...(outDir ? ['--outDir', outDir] : [])], { ...process.env, NODE_ENV: 'production' });
let stamp = force ? {} : readStamp();

const server = hashOf(serverInputs());
const serverStale = stamp.server !== server || !existsSync(at('dist', 'main.js'));
const webHash = serverOnly ? undefined : hashOf(webInputs());
const webStale = !serverOnly && (stamp.web !== webHash || !existsSync(at('dist', 'web', 'index.html')));

if (serverStale) {
  // nest build empties dist/ first (deleteOutDir, so no output of a deleted source lingers): a web build
  // made beside it goes to a folder of its own and moves in after, and one that is kept is set aside.
  // The two builds run side by side: nest build (tsc) keeps one core busy, and a fresh clone builds both.
  const web = at('dist', 'web');
  const cache = at('node_modules', '.cache', 'hatchery');
  const aside = `${cache}/web-build-aside`;
  const fresh = `${cache}/web-build-new`;
  rmSync(aside, { recursive: true, force: true });
  rmSync(fresh, { recursive: true, force: true });
  const kept = !webStale && existsSync(web);
  if (kept) {
    // npm ci empties node_modules, its .cache included
    mkdirSync(dirname(aside), { recursive: true });
    renameSync(web, aside);
  }
  // The embedded database's template is made from the built server, beside the web build still running.
  await Promise.all([run('server (nest build)', bin('nest'), ['build']).then(() => (serverOnly ? undefined : template())), webStale ? viteBuild(fresh) : Promise.resolve()]);
  if (kept) {
    renameSync(aside, web);
  }
  stamp = { ...stamp, server };
  if (webStale) {
    rmSync(web, { recursive: true, force: true });
    renameSync(fresh, web);
    stamp = { ...stamp, web: webHash };
  }
  writeFileSync(STAMP, JSON.stringify(stamp, null, 2));
} else {
  process.stdout.write('build: server is up to date\n');
  if (webStale) {
    await viteBuild();
    stamp = { ...stamp, web: webHash };
    writeFileSync(STAMP, JSON.stringify(stamp, null, 2));
  }
}

if (serverOnly) {
  process.exit(0);
}

if (!webStale) {
  process.stdout.write('build: web UI is up to date\n');
}
if (!serverStale) {
  await template();
}
