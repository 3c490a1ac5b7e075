// Jest's runtime, with V8's code cache kept across the test files of a worker.
//
// Jest gives every test file its own module registry, so every file compiles the panel's modules (and
// Nest's, TypeORM's...) again: about 2 CPU-seconds a file, most of it in `new vm.Script`. V8's own
// compilation cache never serves these, since each script carries its file's dynamic-import callback.
// Here a module's script hands V8, after its first file, the code V8 compiled for it then (`cachedData`:
// V8 checks it against the source and refuses a mismatch, so a changed module simply compiles again).
// The code is taken from the first file's script when the module is loaded a second time, so it holds the
// functions that file ran too, not only the top level. Only the compiling is shared: each file still runs
// every module in its own registry, as Jest means it to.
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

const Script = vm.Script;
/** filename → the first script compiled from that source (until its code is taken), then its code. */
const compiled = new Map();

class CachingScript extends Script {
  constructor(code, options = {}) {
    const filename = options.filename;
    let entry = filename ? compiled.get(filename) : undefined;
    if (entry && entry.code !== code) {
      entry = undefined;
    }
    if (entry && !entry.data) {
      entry.data = entry.script.createCachedData();
      entry.script = undefined;
    }
    super(code, entry ? { ...options, cachedData: entry.data } : options);
    if (filename && (!entry || this.cachedDataRejected)) {
      compiled.set(filename, { code, script: this });
    }
  }
}

// Jest's runtime makes its scripts with `new (require('vm').Script)(...)` at the time it needs one.
vm.Script = CachingScript;

module.exports = Runtime;
