import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Writes .br and .gz beside each built asset; the panel sends them to browsers that accept them
 * (src/common/http/web-app.ts, @fastify/static preCompressed), so nothing is compressed per request.
 */
const precompress = (): Plugin => ({
  name: 'hatchery-precompress',
  apply: 'build',
  writeBundle(options) {
    const dir = join(options.dir ?? here('../dist/web'), 'assets');
    for (const name of readdirSync(dir)) {
      if (!/\.(js|css|svg|json|wasm)$/.test(name)) {
        continue;
      }
      const file = join(dir, name);
      const content = readFileSync(file);
      if (content.length < 1024) {
        continue;
      }
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    }
  },
});

// The web UI: sources in web/, built into dist/web, which the panel serves (src/common/http/web-app.ts).
export default defineConfig({
  root: here('.'),
  publicDir: here('public'),
  plugins: [
    // File routes in web/src/routes; each route's loader and component become one chunk of their own
    // (autoCodeSplitting): a loader prefetches with its feature's api module, which would otherwise join
    // the first visit's bundle.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      routesDirectory: here('src/routes'),
      generatedRouteTree: here('src/routeTree.gen.ts'),
      quoteStyle: 'single',
    }),
    react(),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: here('src') },
      // Pure modules of the panel that the browser runs as they are (web/src/lib/egg-rules: the egg variable rules).
      { find: /^src\//, replacement: `${here('../src')}/` },
    ],
  },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    // Hashed file names under /assets: the panel serves them with a one-year immutable cache.
    assetsDir: 'assets',
    reportCompressedSize: false,
  },
  server: {
    // `npm run dev:web`: the panel on :3000 answers /api (start it with TRUSTED_ORIGINS=http://localhost:5173).
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    root: here('.'),
    css: false,
    // Tables of cases shared with the panel's Jest specs (test/fixtures).
    alias: [{ find: /^test\//, replacement: `${here('../test')}/` }],
    // Pure logic (`*.test.ts`) runs in Node; components (`*.test.tsx`) in happy-dom: jsdom's set-up per
    // file took most of the suite's time (15 s of environment for 14 files, 5 s in happy-dom; the suite's
    // CPU time 87 s to 65). A test that needs a DOM or jsdom says so: `// @vitest-environment jsdom`.
    projects: [
      { extends: true, test: { name: 'logic', include: ['src/**/*.test.ts'], environment: 'node' } },
      // A component test takes under a second alone, but `npm test` runs it beside Jest on two cores,
      // where it rendered 10× slower (then in jsdom, beside the lint and the browser tests): one went past
      // Vitest's default 5 s and failed CI. The limit only catches a test that hangs; speed is not asserted here.
      {
        extends: true,
        test: { name: 'components', include: ['src/**/*.test.tsx'], environment: 'happy-dom', setupFiles: [here('src/test-setup.ts')], testTimeout: 30_000 },
      },
    ],
  },
});
