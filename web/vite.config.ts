import { cpSync, createReadStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Twemoji's SVGs, shipped inside the @twemoji/svg package (no download at install or run time). */
const TWEMOJI_SVG = dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
const EMOJI_FOLDER = 'emoji';

/**
 * The emoji images (lib/emoji-image.ts names them): copied into dist/emoji/ by a build, so our own
 * server serves them, and served from the package by the development server. Not processed by Vite:
 * the app computes their URLs and loads each one only when an emoji is shown as an image.
 */
function emojiImages(): Plugin {
  return {
    name: 'tributary-emoji-images',
    configureServer(server) {
      server.middlewares.use(`/${EMOJI_FOLDER}/`, (request, response, next) => {
        const file = join(TWEMOJI_SVG, (request.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!/^[0-9a-f-]+\.svg$/.test(file.slice(TWEMOJI_SVG.length + 1)) || !existsSync(file)) return next();
        response.setHeader('content-type', 'image/svg+xml');
        createReadStream(file).pipe(response);
      });
    },
    writeBundle(options) {
      cpSync(TWEMOJI_SVG, join(options.dir!, EMOJI_FOLDER), { recursive: true, filter: (source) => source === TWEMOJI_SVG || source.endsWith('.svg') });
    },
  };
}

/** Where the Tributary server listens in development (`tributary start`). */
const SERVER = process.env.TRIBUTARY_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react(), emojiImages()],
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
