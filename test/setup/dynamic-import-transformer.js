// Jest transformer for the few CommonJS files of dependencies that load modules with `import()`: PGlite's
// build (Node's built-ins: "fs/promises", "zlib", "node:module"…) and @fastify/cookie ("cookie", an
// ES-module package converted for Jest by test/setup/esm-packages.js). Jest runs each file's code in a
// vm.Script, and a script may only call import() when compiled with a dynamic-import callback, which Jest
// gives only under --experimental-vm-modules; that callback also makes every script unique to V8, so no
// test file of a worker reused the code an earlier one compiled (each compiled the whole panel again).
// Here each such import() becomes its require(), wrapped as the module namespace import() would give, so
// Jest runs without that flag.
const { createHash } = require('node:crypto');

const { cookie } = require('./esm-packages');

/** Where a converted ES-module package is required from instead of its name. */
const CONVERTED = { cookie };

const DYNAMIC_IMPORT = /\bimport\(\s*(["'])([@a-z0-9_./:-]+)\1\s*\)/g;

// A file's "use strict" stays its first statement (else the file would lose strict mode).
const DIRECTIVE = /^\s*(["'])use strict\1;?/;

// The module's require, taken once at the top: PGlite's Emscripten code declares a `var require` of its
// own in the function that imports "node:module". On the directive's line, so line numbers stay.
const process = (source) => {
  const code = source.replace(
    DYNAMIC_IMPORT,
    (_whole, _quote, name) => `Promise.resolve().then(() => { const m = __requireForImport(${JSON.stringify(CONVERTED[name] ?? name)}); return m && m.__esModule ? m : { ...m, default: m }; })`,
  );
  const directive = DIRECTIVE.exec(code)?.[0] ?? '';
  return { code: `${directive};const __requireForImport = require;${code.slice(directive.length)}` };
};

module.exports = {
  process,
  getCacheKey: (source, filename) => createHash('sha256').update('dynamic-import-5').update(cookie).update(filename).update(source).digest('hex'),
};
