import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../platform/db/migrate.js';
import { openPostgres } from '../platform/db/postgres.js';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from './database.js';
import { createTestDatabase, postgresAdminUrl } from './postgres-cluster.js';

/** The harness's own smoke test: runs in both integration projects. */
const onPostgres = testDatabaseKind() === 'postgres';

function waitFor<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
  ]);
}

describe(`openTestDatabase (${testDatabaseKind()})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('answers SELECT 1 on the expected kind of database', async () => {
    expect(db.kind).toBe(testDatabaseKind());
    const { rows } = await db.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('is migrated', async () => {
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.version).toBe('0001_foundation');
    const users = await db.query<{ t: string | null }>("SELECT to_regclass('public.users')::text AS t");
    expect(users.rows[0]?.t).toBe('users');
  });

  it('migrating again applies nothing', async () => {
    await expect(migrate(db)).resolves.toEqual([]);
  });

  it('reports rowCount for a SELECT as the number of rows', async () => {
    const result = await db.query('SELECT 1 AS x UNION ALL SELECT 2');
    expect(result.rowCount).toBe(2);
  });

  it('delivers NOTIFY to LISTEN after commit', async () => {
    let heardResolve: (payload: string) => void = () => undefined;
    const heard = new Promise<string>((resolve) => (heardResolve = resolve));
    // listen() resolves once LISTEN has run: a notification sent before that would be lost
    await db.listen('harness_smoke', (payload) => heardResolve(payload));
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('harness_smoke', 'same-connection')");
    });
    await expect(waitFor(heard, 15_000, 'the notification')).resolves.toBe('same-connection');
  });
});

describe.skipIf(!onPostgres)('throwaway PostgreSQL cluster', () => {
  it('creates isolated databases and drops them', async () => {
    const a = await createTestDatabase();
    const b = await createTestDatabase();
    expect(a.name).not.toBe(b.name);

    const admin = new pg.Client({ connectionString: await postgresAdminUrl() });
    await admin.connect();
    try {
      const client = new pg.Client({ connectionString: a.url });
      const terminated = new Promise<Error>((resolve) => client.on('error', resolve));
      await client.connect();
      expect((await client.query('SELECT current_database() AS name')).rows[0].name).toBe(a.name);
      await client.query('CREATE TABLE only_in_a (id int)');
      // An open connection does not stop drop(): it ends it (WITH (FORCE)).
      await a.drop();
      await expect(waitFor(terminated, 5_000, 'the connection to end')).resolves.toMatchObject({ code: '57P01' });
      await client.end().catch(() => undefined);

      const other = new pg.Client({ connectionString: b.url });
      await other.connect();
      const tables = await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_a'");
      expect(tables.rows[0].n).toBe(0);
      await other.end();
      await b.drop();

      const left = await admin.query('SELECT datname FROM pg_database WHERE datname = ANY($1)', [[a.name, b.name]]);
      expect(left.rows).toEqual([]);
    } finally {
      await admin.end();
    }
  });

  it('delivers a NOTIFY sent on one connection to a LISTEN on another (platform/db/postgres.ts)', async () => {
    const created = await createTestDatabase();
    const listener = await openPostgres(created.url);
    const sender = await openPostgres(created.url);
    try {
      const received: string[] = [];
      const heard = new Promise<void>((resolve) => {
        void listener.listen('harness_smoke', (payload) => {
          received.push(payload);
          if (received.length === 2) resolve();
        });
      });
      // listen() resolves once LISTEN ran, but the handler registration above is fire-and-forget: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sender.query("SELECT pg_notify('harness_smoke', 'outside a transaction')");
      await sender.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('harness_smoke', 'after commit')");
      });
      await sender
        .transaction(async (tx) => {
          await tx.query("SELECT pg_notify('harness_smoke', 'never delivered')");
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await waitFor(heard, 5_000, 'two notifications');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received.slice(0, 2)).toEqual(['outside a transaction', 'after commit']);
      expect(received).not.toContain('never delivered');
    } finally {
      await listener.close();
      await sender.close();
      await created.drop();
    }
  });

  it('copies a migrated database from the run’s template, and an empty one from nothing', async () => {
    const migrated = await createTestDatabase(undefined, { migrated: true });
    const empty = await createTestDatabase();
    const onMigrated = await openPostgres(migrated.url);
    const onEmpty = await openPostgres(empty.url);
    try {
      // every migration is in the copy already: migrating it (as every caller does) applies nothing
      expect(await migrate(onMigrated)).toEqual([]);
      const tables = (db: typeof onEmpty) => db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
      expect((await tables(onMigrated)).rows[0]!.n).toBeGreaterThan(10);
      expect((await tables(onEmpty)).rows[0]!.n).toBe(0);
      // a copy is its own database: what one file writes, no other sees
      await onMigrated.query('CREATE TABLE only_in_this_copy (id int)');
      const again = await createTestDatabase(undefined, { migrated: true });
      const onAgain = await openPostgres(again.url);
      try {
        expect((await onAgain.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_this_copy'")).rows[0]!.n).toBe(0);
      } finally {
        await onAgain.close();
        await again.drop();
      }
    } finally {
      await onMigrated.close();
      await onEmpty.close();
      await migrated.drop();
      await empty.drop();
    }
  });

  it('migrates a PostgreSQL database and a PGlite one to the same schema', async () => {
    const onServer = await openTestDatabase({ kind: 'postgres' });
    const embedded = await openTestDatabase({ kind: 'pglite' });
    try {
      const columns = (db: TestDatabase) =>
        db.query<{ table_name: string; column_name: string; data_type: string }>(
          `SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, column_name`,
        );
      const [server, pglite] = await Promise.all([columns(onServer), columns(embedded)]);
      expect(server.rows.length).toBeGreaterThan(0);
      expect(server.rows).toEqual(pglite.rows);
    } finally {
      await onServer.close();
      await embedded.close();
    }
    expect(onServer.url).toMatch(/^postgres:\/\//);
  });
});
