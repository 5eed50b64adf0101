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
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: false },
      '/-/session': { target: SERVER, changeOrigin: false },
    },
  },
});
