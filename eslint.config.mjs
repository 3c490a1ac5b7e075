// @ts-check
import { readdirSync } from 'node:fs';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const RELATIVE = { group: ['../*', './*'], message: 'Use absolute src/... imports.' };
const MODULES = readdirSync(new URL('./src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'node_modules/**', 'jest.config.js', 'test/setup/swagger-transformer.js', 'test/setup/summary-reporter.js', 'eslint.config.mjs', 'web/src/routeTree.gen.ts'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
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
    // Tests poke at untyped JSON bodies all the time.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-properties': 'off',
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // The web UI's plain scripts: the no-flash theme script served as is, and the API types generator.
    files: ['web/public/**/*.js', 'web/scripts/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { window: 'readonly', document: 'readonly', process: 'readonly', URL: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, 'no-restricted-properties': 'off', '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    // TanStack Router's redirect() and notFound() are thrown on purpose from beforeLoad and loaders.
    files: ['web/src/routes/**/*.tsx'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    // Playwright specs and the build tooling run in Node and read their settings from the environment;
    // specs import their fixtures beside them (no alias reaches web/e2e).
    files: ['web/e2e/**/*.ts', 'web/*.mts'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-imports': 'off' },
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
