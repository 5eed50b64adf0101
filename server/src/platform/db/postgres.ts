import pg from 'pg';
import type { Database, NotificationHandler, Queryable, QueryOptions, QueryResult } from './database.js';

pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

function adapt(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      const values = params as unknown[] | undefined;
      const result = options?.name ? await client.query({ name: options.name, text, values }) : await client.query(text, values);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  };
}

/**
 * A PostgreSQL server through a pool. LISTEN uses one dedicated connection
 * per process that fans notifications out to in-process handlers.
 */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const handlers = new Map<string, Set<NotificationHandler>>();
  let listener: pg.Client | undefined;

  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    listener = client;
    return client;
  }

  const base = adapt(pool);
  return {
    kind: 'postgres',
    query: base.query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(adapt(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
      };
    },
    async close() {
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
