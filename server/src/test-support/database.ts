import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database, Queryable } from '../platform/db/database.js';
import { migrate } from '../platform/db/migrate.js';
import { openPglite } from '../platform/db/pglite.js';
import { openPostgres } from '../platform/db/postgres.js';
import { pgliteTemplatesEnabled, seedPgliteDir } from './pglite-template.js';
import { createTestDatabase } from './postgres-cluster.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/**
 * Which database the current test run uses: the Vitest project sets
 * TRIBUTARY_TEST_DB (`integration-pglite`, `integration-postgres`); unit tests
 * and anything run by hand default to PGlite.
 */
export function testDatabaseKind(env: NodeJS.ProcessEnv = process.env): TestDatabaseKind {
  const kind = env.TRIBUTARY_TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres') {
    throw new Error(`TRIBUTARY_TEST_DB must be "pglite" or "postgres", not ${JSON.stringify(kind)}`);
  }
  return kind;
}

export interface TestDatabase extends Database {
  /** The postgres:// URL of this database (undefined for in-memory PGlite). */
  readonly url: string | undefined;
}

/**
 * A fresh, migrated database of the current kind: PGlite (a copy of a cached,
 * initialised data directory in a temp dir; in memory when
 * TRIBUTARY_TEST_PGLITE_TEMPLATE=0), or a new database on the test PostgreSQL
 * server. `close()` closes it and drops it (removes the copy, or DROP DATABASE).
 * Open one per test file (in `beforeAll`).
 */
export async function openTestDatabase(options: { migrate?: boolean; kind?: TestDatabaseKind } = {}): Promise<TestDatabase> {
  const kind = options.kind ?? testDatabaseKind();
  let db: Database;
  let url: string | undefined;
  let drop = async (): Promise<void> => undefined;
  if (kind === 'postgres') {
    const created = await createTestDatabase(undefined, { migrated: options.migrate !== false });
    url = created.url;
    drop = created.drop;
    try {
      db = await openPostgres(created.url);
    } catch (error) {
      await drop();
      throw error;
    }
  } else if (pgliteTemplatesEnabled()) {
    // A copy of an initialised data directory opens in well under a second; see pglite-template.ts.
    const dir = mkdtempSync(join(tmpdir(), 'trdb-'));
    drop = async () => rmSync(dir, { recursive: true, force: true });
    try {
      await seedPgliteDir(join(dir, 'pglite'));
      db = openPglite(join(dir, 'pglite'));
    } catch (error) {
      await drop();
      throw error;
    }
  } else {
    db = openPglite(undefined);
  }

  try {
    if (options.migrate !== false) await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    await drop();
    throw error;
  }

  let closed: Promise<void> | undefined;
  return {
    kind: db.kind,
    sessionName: db.sessionName,
    url,
    query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]) {
      return db.query<T>(text, params);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(fn);
    },
    listen: (channel, handler) => db.listen(channel, handler),
    close() {
      closed ??= (async () => {
        try {
          await db.close();
        } finally {
          await drop();
        }
      })();
      return closed;
    },
  };
}
