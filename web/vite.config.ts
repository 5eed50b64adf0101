import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Where the Tributary server listens in development (`tributary start`). */
const SERVER = process.env.TRIBUTARY_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  resolve: {
    // Import the shared contracts from source, per file, so the web bundle needs no
    // prior `tsc -b packages/contracts` and does not pull in modules it does not use (zod).
    alias: [{ find: /^@tributary\/contracts\/(.*)$/, replacement: here('../packages/contracts/src/$1') }],
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    // One stylesheet, linked from index.html, instead of one per chunk: the lazy pages' CSS otherwise
    // arrives as dozens of <link> elements the preload helper appends while the page's code loads,
    // and each costs the main thread work there (the merge request page pulled ~30 of them).
    cssCodeSplit: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: false },
      '/-/session': { target: SERVER, changeOrigin: false },
    },
  },
});
