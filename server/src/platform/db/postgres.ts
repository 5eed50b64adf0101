import pg from 'pg';
import { newSessionName, type Database, type NotificationHandler, type Queryable, type QueryOptions, type QueryResult } from './database.js';

pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/** How long the LISTEN connection waits before reconnecting after it was lost. */
const LISTEN_RECONNECT_MS = 1_000;

function adapt(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      const values = params as unknown[] | undefined;
      const result = options?.name ? await client.query({ name: options.name, text, values }) : await client.query(text, values);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  };
}

export interface PostgresOptions {
  poolSize?: number;
  /** Told about connections the server dropped (a restart, an administrator); the pool replaces them. */
  onConnectionError?: (error: Error) => void;
}

/**
 * A PostgreSQL server through a pool. LISTEN uses one dedicated connection
 * per process that fans notifications out to in-process handlers; when that
 * connection is lost it reconnects and listens again, so a database restart
 * does not silently stop event delivery. An idle pooled connection that the
 * server drops is an event to report, never a crash.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const report = options.onConnectionError ?? (() => undefined);
  const sessionName = newSessionName();
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, application_name: sessionName });
  pool.on('error', report);
  const handlers = new Map<string, Set<NotificationHandler>>();
  let listener: Promise<pg.Client> | undefined;
  let closed = false;

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: sessionName });
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    const lost = (error?: Error) => {
      if (error) report(error);
      if (closed || listener === undefined) return;
      listener = undefined;
      client.removeAllListeners('end');
      setTimeout(() => {
        if (!closed && handlers.size > 0) void listenerClient().catch(report);
      }, LISTEN_RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return client;
  }

  function listenerClient(): Promise<pg.Client> {
    listener ??= connectListener().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    return listener;
  }

  const base = adapt(pool);
  return {
    kind: 'postgres',
    sessionName,
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
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      const client = await listenerClient();
      if (isNew) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        set.delete(handler);
      };
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
