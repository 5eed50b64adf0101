import { pgliteTemplate, pgliteTemplatesEnabled } from './pglite-template.js';

/**
 * Global setup of the projects that open PGlite databases: builds the cached
 * PGlite template once, before the workers start, instead of in every worker
 * at the same time (see pglite-template.ts).
 */
export default async function setup(): Promise<void> {
  if (!pgliteTemplatesEnabled()) return;
  const started = Date.now();
  const dir = await pgliteTemplate();
  const took = Date.now() - started;
  if (took > 500) console.log(`[pglite] template ready in ${took} ms (${dir})`);
}
