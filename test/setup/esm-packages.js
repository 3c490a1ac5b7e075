// ES-module-only packages (openid-client, oidc-provider, pg-boss and what they import, cookie) for Jest. Jest's own
// CommonJS loader will not require() a .js file of a `"type": "module"` package, and the panel's code is
// CommonJS (Node itself requires them natively in dist/).
// So each is copied once, made CommonJS with TypeScript's transpileModule, into a cache folder whose
// package.json says commonjs, and moduleNameMapper points the package names there. (Node itself
// loads them in dist/ with require(), as Node 22 can.)
const { createHash } = require('node:crypto');
const { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..', '..');
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose', 'oidc-provider', 'cookie', 'pg-boss', 'serialize-error', 'non-error'];
const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, allowJs: true };

const versionOf = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
const stamp = createHash('sha256').update(ESM_ONLY.map((p) => `${p}@${versionOf(p)}`).join(',')).update(ts.version).update('json files too').digest('hex').slice(0, 16);
// Under node_modules, so that what the copies require (koa, debug…) resolves as from the originals.
const cache = join(root, 'node_modules', '.cache', `hatchery-jest-esm-${stamp}`);

const convert = (from, to) => {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (name === 'node_modules') {
      cpSync(source, target, { recursive: true }); // CommonJS dependencies of its own (oidc-provider's koa)
    } else if (statSync(source).isDirectory()) {
      mkdirSync(target, { recursive: true });
      convert(source, target);
    } else if (name.endsWith('.js')) {
      writeFileSync(target, ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions: options, fileName: name }).outputText);
    } else if (name === 'package.json') {
      writeFileSync(target, JSON.stringify({ ...JSON.parse(readFileSync(source, 'utf8')), type: 'commonjs' }));
    } else if (name.endsWith('.json')) {
      cpSync(source, target); // data a module imports (pg-boss's schema.json)
    }
  }
};

if (!existsSync(cache)) {
  // Built aside and renamed into place, so a Jest started meanwhile never sees half of it.
  const building = `${cache}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  for (const pkg of ESM_ONLY) {
    mkdirSync(join(building, pkg), { recursive: true });
    convert(join(root, 'node_modules', pkg), join(building, pkg));
  }
  try {
    renameSync(building, cache);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another one got there first
  }
}

const at = (...parts) => join(cache, ...parts);

/** moduleNameMapper entries for the converted packages (and the jose subpaths openid-client imports). */
const moduleNameMapper = {
  '^openid-client$': at('openid-client', 'build', 'index.js'),
  '^oauth4webapi$': at('oauth4webapi', 'build', 'index.js'),
  '^jose$': at('jose', 'dist', 'webapi', 'index.js'),
  '^jose/jwe/compact/decrypt$': at('jose', 'dist', 'webapi', 'jwe', 'compact', 'decrypt.js'),
  '^jose/errors$': at('jose', 'dist', 'webapi', 'util', 'errors.js'),
  '^oidc-provider$': at('oidc-provider', 'lib', 'index.js'),
  '^pg-boss$': at('pg-boss', 'dist', 'index.js'),
  '^serialize-error$': at('serialize-error', 'index.js'),
  '^non-error$': at('non-error', 'index.js'),
};

exports.moduleNameMapper = moduleNameMapper;
// "cookie" is not mapped by name (light-my-request requires a CommonJS cookie@1 of its own): only
// @fastify/cookie's import() of it is sent here, by test/setup/dynamic-import-transformer.js.
exports.cookie = at('cookie', 'dist', 'index.js');
