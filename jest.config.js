/** @type {import('jest').Config} */
const tsJest = [
  '<rootDir>/test/setup/dto-transformer.js', // ts-jest, with a cache key that needs no TypeScript program
  {
    tsconfig: 'tsconfig.build.json', // tsconfig.json with the node10 resolution TypeScript 5 needs beside CommonJS
    // The same Swagger plugin as `nest build`, so /api/docs.json in tests describes the DTOs too.
    astTransformers: {
      before: ['<rootDir>/test/setup/swagger-transformer.js'],
    },
    diagnostics: false, // `npm run typecheck` type-checks once; per-file checks here would only slow the suite
  },
];

// The only dependencies transformed: their CommonJS calls import() (test/setup/dynamic-import-transformer.js).
const IMPORT_CALLERS = ['@electric-sql/pglite/dist/.+\\.cjs', '@fastify/cookie/index\\.js'].join('|');

const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: __dirname,
  testEnvironment: 'node',
  // The first pattern that matches a file is the one used: ts-jest with the Swagger plugin for the DTOs and
  // controllers it reads, every other file compiled on its own (test/setup/transpile-transformer.js).
  transform: {
    '\\.(dto|controller)\\.ts$': tsJest,
    '^.+\\.ts$': '<rootDir>/test/setup/transpile-transformer.js',
    [`/node_modules/(${IMPORT_CALLERS})$`]: '<rootDir>/test/setup/dynamic-import-transformer.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${IMPORT_CALLERS})$)`],
  moduleNameMapper: { '^src/(.*)$': '<rootDir>/src/$1', '^test/(.*)$': '<rootDir>/test/$1', ...require('./test/setup/esm-packages').moduleNameMapper },
};

module.exports = {
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
  // Every e2e file has its own database, so files run side by side: two workers on the two cores CI
  // has (Jest's default there is one), which took the suite from ≈ 13 to ≈ 4 minutes with cheap argon2.
  // Alone they keep the cores about 1.4 busy, but in `npm test` the browser tests and the lint use the
  // rest: a third worker (tried on 28 November) only moved the time between files.
  maxWorkers: 2,
  // Each file leaves its module registry behind in the worker (≈ 25 MB a file; Jest's known leak), and
  // a worker's heap reached 3 GB by the end: its garbage collections, and PGlite's WebAssembly heaps
  // beside it, slowed the late files (the embedded-database template spec took 58 s instead of 8).
  // A worker whose heap is past this after a file is replaced: ≈ 8 % off the whole run.
  workerIdleMemoryLimit: '1200MB',
  testSequencer: '<rootDir>/test/setup/sequencer.js',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.int-spec.ts'] },
  ],
};
