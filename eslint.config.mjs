// @ts-check
import { readdirSync } from 'node:fs';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const RELATIVE = { group: ['../*', './*'], message: 'Use absolute src/... imports.' };
const MODULES = readdirSync(new URL('./src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Casts that would silence the generated API types of the web client. */
const NO_API_CASTS = [
  {
    selector: 'TSAsExpression > TSNeverKeyword.typeAnnotation',
    message: 'No `as never`: type the call with the generated API types (web/src/lib/api/types.ts); if the OpenAPI document lacks something, describe it on the server.',
  },
  {
    selector: 'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
    message: 'No `as unknown as`: use the generated API types, or type the value so that it needs no cast.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'node_modules/**', 'jest.config.js', 'test/setup/swagger-transformer.js', 'test/setup/transpile-transformer.js', 'test/setup/dto-transformer.js', 'test/setup/summary-reporter.js', 'test/setup/sequencer.js', 'test/setup/esm-packages.js', 'test/setup/dynamic-import-transformer.js', 'eslint.config.mjs', 'web/src/routeTree.gen.ts'] },
  eslint.configs.recommended,
  // The rules that need no types. The type-checked ones (typescript-eslint's recommended type-checked
  // set, no-floating-promises, no-misused-promises, switch-exhaustiveness-check) run in oxlint with
  // tsgolint on TypeScript 7: .oxlintrc.json, the second half of `npm run lint`.
  ...tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-restricted-imports': ['error', { patterns: [RELATIVE] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through AppConfigService.' }],
    },
  },
  // Module boundaries: a module reaches another through its exported services, never its repository,
  // and src/common (what any module may use) depends on no module.
  ...MODULES.map((name) => ({
    files: [`src/modules/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            RELATIVE,
            {
              regex: `^src/modules/(?!${name}/).*\\.repository$`,
              message: `A module uses another module's services, not its repository: export what ${name} needs from the owning module's service.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [RELATIVE, { regex: '^src/modules/', message: 'src/common is what every module uses: it imports nothing from src/modules.' }] },
      ],
    },
  },
  {
    // Tests (their untyped JSON bodies: .oxlintrc.json).
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-properties': 'off',
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Plain scripts: the web UI's no-flash theme script served as is, the API types generator, the build.
    files: ['web/public/**/*.js', 'web/scripts/**/*.mjs', 'scripts/**/*.mjs', 'scripts/**/*.cjs'],
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', process: 'readonly', URL: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: {
      'no-restricted-properties': 'off',
      // Scripts import each other by relative path: they are not compiled with the panel's path aliases.
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }],
    },
  },
  {
    // The web client's types come from the OpenAPI document (web/src/api/schema.d.ts, `npm run gen:api`):
    // a cast that silences them hides a drift between the panel and the page.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}', 'web/src/api/schema.d.ts', 'web/src/routeTree.gen.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_API_CASTS] },
  },
  {
    // A feature's api.ts takes its response shapes from the generated schema, never from a copy.
    files: ['web/src/features/*/api.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...NO_API_CASTS,
        {
          selector: 'TSInterfaceDeclaration',
          message: "No hand-written API shapes in a feature's api.ts: alias components['schemas']['…Dto'] of '@/api/schema', or derive the type from ResponseOf (web/src/lib/api/types.ts).",
        },
      ],
    },
  },
  {
    // Playwright specs and the build tooling run in Node and read their settings from the environment.
    files: ['web/e2e/**/*.ts', 'web/*.mts', 'web/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tools (knip among them) load the Playwright config without the tsconfig paths its tests use.
    files: ['web/playwright.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The one place that reads the environment, and the TypeORM CLI entry.
    files: ['src/config/config.module.ts', 'ormconfig.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Comments point at files of this repository: contracts are written once in docs/ and cited there.
    plugins: {
      hatchery: {
        rules: {
          'no-outside-citations': {
            meta: { type: 'suggestion', schema: [], messages: { outside: 'Comment cites "{{cited}}", outside this repository: cite docs/ (or nothing).' } },
            create(context) {
              const outside = /(?<!docs\/)\b(?:interface|wings|addendum|STYLE)\.md\b|\baddendum\b|§|\b(?:issue|PR) #\d+|\bW:[a-z]+\//i;
              return {
                Program() {
                  for (const comment of context.sourceCode.getAllComments()) {
                    const cited = outside.exec(comment.value);
                    if (cited) {
                      context.report({ loc: comment.loc, messageId: 'outside', data: { cited: cited[0] } });
                    }
                  }
                },
              };
            },
          },
        },
      },
    },
    rules: { 'hatchery/no-outside-citations': 'error' },
  },
);
