import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { newSessionName, type Database, type Queryable, type QueryResult } from './database.js';

/** int8 ids and counts come back as JS numbers on both drivers (ids stay far below 2^53). */
const parsers = { [types.INT8]: (value: string) => Number(value) };

function adapt(q: { query: PGlite['query'] }): Queryable {
  return {
    async query<T>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const result = await q.query<T>(text, params as unknown[] | undefined);
      // affectedRows is 0 for a SELECT; node-postgres' rowCount counts the rows returned then.
      return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) };
    },
  };
}

/**
 * Embedded PostgreSQL. One process owns the data directory (see
 * platform/process-lock.ts); PGlite runs one statement at a time and queues
 * the rest, and a transaction holds the connection until it ends.
 */
export async function openPglite(dir: string | undefined): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create(dir ? { dataDir: dir, parsers } : { parsers });
  const base = adapt(pg);
  const sessionName = newSessionName();
  await pg.query(`SELECT set_config('application_name', $1, false)`, [sessionName]);
  return {
    kind: 'pglite',
    sessionName,
    query: base.query,
    transaction: (fn) => pg.transaction((tx) => fn(adapt(tx))),
    async listen(channel, handler) {
      const unsubscribe = await pg.listen(channel, handler);
      return async () => unsubscribe();
    },
    close: () => pg.close(),
  };
}
