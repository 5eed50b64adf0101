import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireDataDir } from '../process-lock.js';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';

/** DATABASE_URL selects a server; otherwise PGlite lives in `<dataDir>/pglite`. */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    // node-postgres loads only for a server: a twentieth of an embedded start otherwise.
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(options.databaseUrl, { onConnectionError: (error) => console.warn(`tributary: a database connection was lost (${error.message}); reconnecting`) });
  }
  const dir = join(options.dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) await createPglite(dir);
  return openPglite(dir);
}

/**
 * A first start creates and migrates the embedded database on a thread that then ends, and
 * the server opens it again on a new one. initdb and the migrations grow PGlite's WebAssembly
 * memory far beyond what serving needs (a first start idled at ~750 MB, a restart at ~270 MB),
 * and a WebAssembly memory never shrinks: ending the thread frees it (npm run bench:
 * first-start-memory). It costs a first start one more PGlite start, about half a second.
 */
async function createPglite(dir: string): Promise<void> {
  const { migrate } = await import('./migrate.js');
  const creating = openPglite(dir);
  try {
    await migrate(creating);
  } finally {
    await creating.close();
  }
}

export type OpeningDatabase = Promise<{ db: Database; release: () => void }>;

/**
 * Takes the data directory (embedded database only: one process owns it)
 * and opens the database. `tributary start` calls this before loading the
 * rest of the server, so PGlite starts while the modules load.
 */
export async function openDatabaseFor(options: { databaseUrl?: string; dataDir: string }): OpeningDatabase {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const release = options.databaseUrl ? () => undefined : acquireDataDir(options.dataDir);
  try {
    return { db: await openDatabase(options), release };
  } catch (error) {
    release();
    throw error;
  }
}
