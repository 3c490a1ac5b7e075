// Jest transformer for every TypeScript file the Swagger plugin does not read (see jest.config.js):
// TypeScript's own transpileModule, one file at a time, with the compiler options of tsconfig.json. It
// builds no program, so a fresh clone's first test file no longer spends half a minute of CPU per
// worker compiling the panel. (ts-jest cannot serve here: it keeps one configuration per Jest
// project, so a second ts-jest entry with other options would share the first one's.)
const { createHash } = require('node:crypto');
const { join } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..', '..');
// node10 resolution as for nest build (tsconfig.build.json): TypeScript 5 takes bundler only beside ES modules.
const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), { moduleResolution: ts.ModuleResolutionKind.Node10 }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
if (!parsed) {
  throw new Error('transpile-transformer: tsconfig.json could not be read');
}
const compilerOptions = { ...parsed.options, isolatedModules: true, sourceMap: false, inlineSourceMap: true, inlineSources: true, declaration: false, noEmit: false };
const optionsKey = JSON.stringify(compilerOptions);

module.exports = {
  getCacheKey: (source, path) => createHash('sha256').update(ts.version).update('\0').update(optionsKey).update('\0').update(path).update('\0').update(source).digest('hex'),
  process: (source, path) => ({ code: ts.transpileModule(source, { compilerOptions, fileName: path }).outputText }),
};
