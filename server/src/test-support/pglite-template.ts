import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openPglite } from '../platform/db/pglite.js';

/**
 * A fresh PGlite database spends about 5 s (more on a busy 2-core machine) in
 * its WebAssembly initdb; copying an initialised data directory and opening
 * that takes well under a second, and behaves the same afterwards (measured:
 * equal write speed on disk and in memory). So tests copy one template per
 * PGlite version, built once and cached in the temp dir.
 *
 * The template is a bare initdb, not migrated: migrations run on every copy,
 * so a changed migration never meets a stale template.
 *
 * TRIBUTARY_TEST_PGLITE_TEMPLATE=0 turns this off (every database runs initdb).
 */
export function pgliteTemplatesEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TRIBUTARY_TEST_PGLITE_TEMPLATE !== '0';
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

const DONE_MARKER = '.tributary-template-complete';

function templateDir(): string {
  return join(tmpdir(), 'tributary-test-cache', `pglite-${pgliteVersion()}-${process.arch}`);
}

let building: Promise<string> | undefined;

/** The path of an initialised PGlite data directory; builds it when missing. */
export function pgliteTemplate(): Promise<string> {
  building ??= (async () => {
    const dir = templateDir();
    if (existsSync(join(dir, DONE_MARKER))) return dir;
    mkdirSync(dirname(dir), { recursive: true });
    // Build beside the final place, then rename: a reader never sees half a template,
    // and two processes building at once both end up using one complete copy.
    const scratch = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      const db = await openPglite(scratch);
      await db.query('SELECT 1');
      await db.close();
      writeFileSync(join(scratch, DONE_MARKER), `${new Date().toISOString()}\n`);
      try {
        renameSync(scratch, dir);
      } catch (error) {
        if (!existsSync(join(dir, DONE_MARKER))) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return dir;
  })();
  building.catch(() => {
    building = undefined;
  });
  return building;
}

/**
 * Fills `target` (which must not exist yet) with a copy of the template, ready
 * for `openPglite(target)`. Returns false when templates are turned off.
 */
export async function seedPgliteDir(target: string): Promise<boolean> {
  if (!pgliteTemplatesEnabled()) return false;
  const template = await pgliteTemplate();
  const skip = new Set([join(template, DONE_MARKER), join(template, 'postmaster.pid')]);
  cpSync(template, target, { recursive: true, filter: (source) => !skip.has(source) });
  return true;
}
