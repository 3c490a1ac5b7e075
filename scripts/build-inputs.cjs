// What `npm run build` builds from, and the stamp it leaves in dist/: shared by scripts/build.mjs, which
// skips a build whose inputs did not change, and by the tests that start the panel as a process, which
// run the built dist/ when it is the build of the sources at hand (ts-node otherwise).
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const at = (...parts) => join(root, ...parts);
const STAMP = at('dist', '.build-stamp.json');

/** Every file under `dir` (relative to the repository) for which `keep` says yes. */
const filesUnder = (dir, keep) => {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (keep(relative(root, full))) {
        out.push(relative(root, full));
      }
    }
  };
  if (existsSync(at(dir))) {
    walk(at(dir));
  }
  return out;
};

const hashOf = (files) => {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(file).update('\0').update(readFileSync(at(file))).update('\0');
  }
  return hash.digest('hex');
};

const COMMON = ['package-lock.json'];
const serverInputs = () => [...COMMON, 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', ...filesUnder('src', (f) => !f.endsWith('.spec.ts'))];
// Tests, Playwright specs and the generated route tree (an output of the build itself) change nothing that is served.
const webInputs = () => [
  ...COMMON,
  // web/node_modules holds Vitest's results cache: a test run must not make the web UI look changed.
  ...filesUnder('web', (f) => !/^web\/(e2e|scripts|node_modules)\//.test(f) && !/\.test\.tsx?$/.test(f) && f !== 'web/src/routeTree.gen.ts' && !/^web\/src\/test-/.test(f)),
];

const readStamp = () => {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
};

/** dist/ holds the server built from the sources as they are now. */
const serverBuildIsCurrent = () => existsSync(at('dist', 'main.js')) && readStamp().server === hashOf(serverInputs());

module.exports = { root, at, STAMP, hashOf, serverInputs, webInputs, readStamp, serverBuildIsCurrent };
