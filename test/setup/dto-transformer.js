// Jest transformer for the files the Swagger plugin reads (DTOs, controllers: jest.config.js): ts-jest,
// with a cheaper cache key. ts-jest's own key lists every module the file imports, and finding them
// builds a TypeScript language service in each Jest worker on its first DTO, even when every file is
// cached: ≈ 6 s of CPU per worker, paid again each time a worker is replaced (workerIdleMemoryLimit).
// Here the key is the file, the options and a fingerprint of the sources (path, size, time of every
// .ts file under src/, read once per worker), so an edit anywhere in src/ recompiles these files and
// ts-jest's compiler is only made when a file is not in the cache.
const { createHash } = require('node:crypto');
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const tsJest = require('ts-jest').default;

let fingerprint;
const sourcesFingerprint = () => {
  if (fingerprint === undefined) {
    const hash = createHash('sha256');
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(path);
        } else if (entry.name.endsWith('.ts')) {
          const { size, mtimeMs } = statSync(path);
          hash.update(`${path}\0${size}\0${mtimeMs}\0`);
        }
      }
    };
    walk(join(root, 'src'));
    for (const file of ['tsconfig.json', 'package-lock.json', 'test/setup/swagger-transformer.js']) {
      hash.update(readFileSync(join(root, file)));
    }
    fingerprint = hash.digest('hex');
  }
  return fingerprint;
};

module.exports = {
  createTransformer(options) {
    const transformer = tsJest.createTransformer(options);
    const optionsKey = JSON.stringify(options ?? {});
    return {
      canInstrument: false,
      getCacheKey: (source, path, { instrument = false, supportsStaticESM = false } = {}) =>
        createHash('sha256')
          .update(`${optionsKey}\0${sourcesFingerprint()}\0${instrument}\0${supportsStaticESM}\0${path}\0`)
          .update(source)
          .digest('hex'),
      process: (source, path, transformOptions) => transformer.process(source, path, transformOptions),
    };
  },
};
