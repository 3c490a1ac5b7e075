/** @type {import('jest').Config} */
const tsJest = [
  'ts-jest',
  {
    tsconfig: 'tsconfig.json',
    // The same Swagger plugin as `nest build`, so /api/docs.json in tests describes the DTOs too.
    astTransformers: {
      before: ['<rootDir>/test/setup/swagger-transformer.js'],
    },
    diagnostics: false, // `npm run typecheck` type-checks once; per-file checks here would only slow the suite
  },
];

const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: __dirname,
  testEnvironment: 'node',
  // The first pattern that matches a file is the one used: ts-jest with the Swagger plugin for the DTOs and
  // controllers it reads, every other file compiled on its own (test/setup/transpile-transformer.js).
  transform: { '\\.(dto|controller)\\.ts$': tsJest, '^.+\\.ts$': '<rootDir>/test/setup/transpile-transformer.js' },
  moduleNameMapper: { '^src/(.*)$': '<rootDir>/src/$1', '^test/(.*)$': '<rootDir>/test/$1' },
};

module.exports = {
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
  // Every e2e file has its own database, so files run side by side: two workers on the two cores CI
  // has (Jest's default there is one), which took the suite from ≈ 13 to ≈ 4 minutes with cheap argon2.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.int-spec.ts'] },
  ],
};
