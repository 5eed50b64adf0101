import type { Database, Queryable } from './database.js';

/**
 * A counter that moves whenever rows of some tables may have changed, for
 * caches of data read from them. It moves
 *
 * - in this process, right after a statement that writes one of the tables
 *   ends, or after the transaction holding one ends (commit or rollback), so
 *   a request that follows its own write reads fresh data;
 * - for every process, when PostgreSQL announces a committed change on
 *   `channel` (a statement trigger calls pg_notify, migration 0010), which
 *   covers other processes and writes made outside the server.
 *
 * A cache records the generation before it reads and stores the answer only
 * if the generation has not moved meanwhile: a read that raced a commit is
 * never kept.
 */
export interface WriteWatch {
  generation(): number;
  /** LISTEN on the channel; resolves to a stop function. */
  start(): Promise<() => Promise<void>>;
}

/** INSERT INTO t, UPDATE t, DELETE FROM t, TRUNCATE t, in any statement (CTEs included). */
export function writesTo(tables: readonly string[]): (sql: string) => boolean {
  const pattern = new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|TRUNCATE(?:\\s+TABLE)?)\\s+(?:ONLY\\s+)?(?:${tables.join('|')})\\b`, 'i');
  const known = new Map<string, boolean>();
  return (sql) => {
    let writes = known.get(sql);
    if (writes === undefined) {
      writes = pattern.test(sql);
      // Statement texts are a bounded set in practice; the cap keeps a surprise from growing it forever.
      if (known.size < 10_000) known.set(sql, writes);
    }
    return writes;
  };
}

/** Wraps `db` so that writes to `tables` move the watch's generation. */
export function watchWrites(db: Database, tables: readonly string[], channel: string): { db: Database; watch: WriteWatch } {
  const isWrite = writesTo(tables);
  let generation = 0;
  const bump = () => {
    generation += 1;
  };

  const watched: Database = {
    kind: db.kind,
    async query(text, params, options) {
      try {
        return await db.query(text, params, options);
      } finally {
        if (isWrite(text)) bump();
      }
    },
    async transaction(fn) {
      let wrote = false;
      try {
        return await db.transaction((tx: Queryable) =>
          fn({
            query(text, params, options) {
              if (isWrite(text)) wrote = true;
              return tx.query(text, params, options);
            },
          }),
        );
      } finally {
        if (wrote) bump();
      }
    },
    listen: (name, handler) => db.listen(name, handler),
    close: () => db.close(),
  };

  return {
    db: watched,
    watch: {
      generation: () => generation,
      start: () => db.listen(channel, bump),
    },
  };
}
