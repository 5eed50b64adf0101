import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, readMigrations } from '../platform/db/migrate.js';
import { openPglite } from '../platform/db/pglite.js';

/**
 * A fresh PGlite database spends 4-10 s (on a busy 2-core machine) in its
 * WebAssembly initdb, and a second or two in migrations; copying a prepared
 * data directory and opening the copy takes about two seconds, and behaves the
 * same afterwards (measured: equal write speed on disk and in memory). So
 * tests copy a template, built once and cached in the temp dir:
 *
 *   - migrated: initdb + all migrations, keyed by the PGlite version and a hash
 *     of server/migrations, so a changed migration gets a new template;
 *   - bare: initdb only, used when the migrated one cannot be trusted, i.e.
 *     when running the migrations a second time on it does not apply nothing.
 *
 * TRIBUTARY_TEST_PGLITE_TEMPLATE=0 turns templates off (every database runs initdb).
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
const CACHE_DIR = join(tmpdir(), 'tributary-test-cache');

/** What a migrated template depends on: the migrations, and the code that runs them. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const migration of readMigrations()) hash.update(`${migration.version}\0${migration.sql}\0`);
  for (const file of ['../platform/db/migrate.ts', '../platform/db/pglite.ts']) {
    const path = fileURLToPath(new URL(file, import.meta.url));
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds a template with `prepare` beside `dir`, then renames it into place. */
async function build(dir: string, prepare: (scratch: string) => Promise<void>): Promise<string> {
  if (existsSync(join(dir, DONE_MARKER))) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  // A reader never sees half a template, and two processes building at once both
  // end up using one complete copy.
  const scratch = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await prepare(scratch);
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
}

/** Removes migrated templates of other migration sets that nobody used for an hour. */
function pruneOldTemplates(keep: string): void {
  try {
    for (const name of readdirSync(CACHE_DIR)) {
      const path = join(CACHE_DIR, name);
      if (path === keep || path === `${keep}.unusable` || !name.includes('-migrated-') || name.includes('.building-')) continue;
      if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // best effort
  }
}

let building: Promise<string> | undefined;

/** The path of a prepared PGlite data directory (see above); builds it when missing. */
export async function pgliteTemplate(): Promise<string> {
  // A worker keeps its modules across files (vitest.config.ts), so the path found first is
  // remembered for many files: if the directory went since (another checkout's run pruned it, or
  // the temp dir was cleaned), forget it and build it again.
  if (building) {
    const known = await building.catch(() => undefined);
    if (known && !existsSync(join(known, DONE_MARKER))) building = undefined;
  }
  building ??= (async () => {
    const base = join(CACHE_DIR, `pglite-${pgliteVersion()}-${process.arch}`);
    const bare = () =>
      build(`${base}-bare`, async (scratch) => {
        const db = openPglite(scratch);
        await db.close();
      });

    const migratedDir = `${base}-migrated-${migrationsHash()}`;
    const unusable = `${migratedDir}.unusable`;
    pruneOldTemplates(migratedDir);
    if (existsSync(unusable)) return bare();
    try {
      return await build(migratedDir, async (scratch) => {
        const db = openPglite(scratch);
        try {
          await migrate(db);
          // A copy is migrated again by every test; that must be a no-op, or the copy is useless.
          const again = await migrate(db);
          if (again.length > 0) throw new Error(`migrating twice applied ${again.join(', ')} again`);
        } finally {
          await db.close();
        }
      });
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0];
      // Remembered, so that every other worker does not try again.
      writeFileSync(unusable, `${reason}\n`);
      console.warn(`[pglite] using a bare (unmigrated) template, because ${reason}`);
      return bare();
    }
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
  // In use: a run of another checkout prunes templates that nobody used for an hour (by their time).
  try {
    const now = new Date();
    utimesSync(template, now, now);
  } catch {
    // best effort
  }
  const skip = new Set([join(template, DONE_MARKER), join(template, 'postmaster.pid')]);
  cpSync(template, target, { recursive: true, filter: (source) => !skip.has(source) });
  return true;
}
