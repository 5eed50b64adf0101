import { mkdirSync } from 'node:fs';
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
  return openPglite(join(options.dataDir, 'pglite'));
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
