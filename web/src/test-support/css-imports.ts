import { register } from 'node:module';

/**
 * Primer's modules import their own CSS (`import './Button-….css'`), and Vitest leaves packages
 * to Node, which cannot load CSS: a loader hook answers every `.css` import with an empty module.
 * (Handing Primer to Vite instead, `server.deps.inline`, works too but transforms hundreds of its
 * modules on every run: 2 s more per file.) Imported first by test-support/component.tsx, so
 * the hook is in place before any Primer module loads; once per process.
 */
const registered = Symbol.for('tributary.test.css-imports');
const state = globalThis as { [registered]?: true };
if (!state[registered]) {
  state[registered] = true;
  register(
    'data:text/javascript,' +
      encodeURIComponent(`export async function load(url, context, next) {
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  return next(url, context);
}`),
  );
}
