import type { Database } from '../platform/db/database.js';

/** The job queue and the event bus poll on their own schedule: their statements are not a request's. */
const BACKGROUND = /\b(background_jobs|domain_events|pg_stat_activity)\b/;

/**
 * Counts the statements the app's database wrapper (every repository's) is sent while `during`
 * runs: a transaction counts its BEGIN and COMMIT too. Counted, not timed, so the figure is the
 * same on a loaded machine. Send one request at a time.
 */
export function roundTripCounter(db: Database) {
  let counter: { count: number } | undefined;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const count = (text: string, extra = 0) => {
    if (counter && !BACKGROUND.test(text)) counter.count += 1 + extra;
  };
  db.query = ((text: string, params?: readonly unknown[], options?: object) => {
    count(text);
    return query(text, params, options);
  }) as Database['query'];
  db.transaction = ((fn: Parameters<Database['transaction']>[0]) => {
    const statements: string[] = [];
    return transaction((tx) =>
      fn({
        query: (text, params, options) => {
          statements.push(text);
          return tx.query(text, params, options);
        },
      }),
    ).finally(() => {
      if (!statements.some((text) => BACKGROUND.test(text))) for (const [index, text] of statements.entries()) count(text, index === 0 ? 2 : 0);
    });
  }) as Database['transaction'];

  return {
    /** Runs `during` and answers its result with the statements sent meanwhile. */
    async count<T>(during: () => Promise<T>): Promise<{ value: T; roundTrips: number }> {
      counter = { count: 0 };
      try {
        const value = await during();
        return { value, roundTrips: counter.count };
      } finally {
        counter = undefined;
      }
    },
  };
}
