import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The web UI: sources in web/, built into dist/web, which the panel serves (src/common/http/web-app.ts).
export default defineConfig({
  root: here('.'),
  publicDir: here('public'),
  plugins: [
    // File routes in web/src/routes; each route's component becomes its own chunk (autoCodeSplitting).
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: here('src/routes'),
      generatedRouteTree: here('src/routeTree.gen.ts'),
      quoteStyle: 'single',
    }),
    react(),
  ],
  resolve: { alias: { '@': here('src') } },
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
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: [here('src/test-setup.ts')],
    css: false,
  },
});
