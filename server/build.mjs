// Bundles the server into ES modules: the entry server/dist/tributary.mjs and its chunks in
// server/dist/chunks/. `tsc -b` still type-checks and emits dist/ for tooling, but the program
// users run is this bundle: a few files to load instead of hundreds, which takes about half a
// second off every start (npm run bench: cold start).
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * @fastify/cookie loads `cookie` with `await import('cookie')` and calls its named exports.
 * Node gives a CommonJS module (cookie 1.x, what the root overrides pin) named exports, but
 * esbuild's chunk for it exports only `default`, so the bundle's sign-in answered 500
 * ("cookieModule.stringifySetCookie is not a function"). Bundled as require(), the names are
 * there. Fails the build if the line is gone, so an upgrade cannot break it silently.
 */
const cookieAsRequire = {
  name: 'fastify-cookie-require',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]@fastify[\\/]cookie[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const rewritten = source.replace("await import('cookie')", "require('cookie')");
      if (rewritten === source) throw new Error(`${args.path}: no import('cookie') to bundle as require('cookie')`);
      return { contents: rewritten, loader: 'js' };
    });
  },
};

const dist = new URL('./dist/', import.meta.url).pathname;
// Chunk names carry content hashes: drop the previous build's.
rmSync(`${dist}chunks`, { recursive: true, force: true });

await build({
  entryPoints: [new URL('./src/main.ts', import.meta.url).pathname],
  outdir: dist,
  entryNames: 'tributary',
  // What a start does not need (Markdown rendering with every highlighted language) sits in
  // chunks loaded by dynamic import() on first use, so a start neither parses nor runs it.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // PGlite finds its WebAssembly and data files next to its own module; pg-native is optional.
  external: ['@electric-sql/pglite', '@electric-sql/pglite/*', 'pg-native'],
  plugins: [cookieAsRequire],
  // Bundled CommonJS dependencies call require(); give the ES module one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

// The embedded database's thread is plain JavaScript that runs as it is (platform/db/pglite.ts finds it here).
copyFileSync(new URL('./src/platform/db/pglite-thread.mjs', import.meta.url), `${dist}pglite-thread.mjs`);
