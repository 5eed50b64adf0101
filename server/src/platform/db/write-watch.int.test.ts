import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';
import { syncWriteTriggers, WATCHED_TABLES, watchWrites } from './write-watch.js';

/** Every table a cache reads announces its writes to other processes (triggers made from WATCHED_TABLES). */
describe(`write watch triggers (${testDatabaseKind()})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('has a statement trigger announcing writes on every watched table', async () => {
    const { rows } = await server.app.db.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE p.proname = 'tributary_notify_table_write' AND NOT t.tgisinternal`,
    );
    expect(rows.map((row) => row.table).sort()).toEqual([...WATCHED_TABLES].sort());
  });

  it('hears a write as the table it was made on', async () => {
    const before = server.app.writeWatch.generation(['notes']);
    const heard = new Promise<string>((resolve) => void server.app.db.listen('tributary_table_writes', resolve));
    await server.app.db.query(`UPDATE users SET name = name WHERE id = $1`, [server.root.id]);
    expect(await heard).toBe('users');
    expect(server.app.writeWatch.generation(['notes'])).toBe(before);
  });
});

/** A write to every watched table moves its generation, whoever makes it; the triggers follow the list. */
describe(`write watch invalidation of every watched table (${testDatabaseKind()})`, () => {
  let raw: TestDatabase;
  beforeAll(async () => {
    raw = await openTestDatabase();
  });
  afterAll(() => raw?.close());

  const triggered = async () =>
    (
      await raw.query<{ table: string }>(
        `SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE p.proname = 'tributary_notify_table_write' AND NOT t.tgisinternal`,
      )
    ).rows
      .map((row) => row.table)
      .sort();

  it.each([...WATCHED_TABLES])('%s: a write made past the server moves it when its trigger is heard, one through the wrapper at once', async (table) => {
    // As another process or psql would write: only the trigger tells.
    const listening = watchWrites(raw).watch;
    const stop = await listening.start();
    try {
      // A statement trigger fires for a statement that changes no row too.
      await raw.query(`DELETE FROM ${table} WHERE false`);
      await eventually(async () => listening.generation([table]) >= 1, 10_000);
    } finally {
      await stop();
    }

    // Not listening: only the wrapper can move this one, before the statement's promise resolves.
    const inProcess = watchWrites(raw);
    await inProcess.db.query(`DELETE FROM ${table} WHERE false`);
    expect(inProcess.watch.generation([table])).toBe(1);
  });

  it('creates a missing trigger and drops one on a table no longer watched', async () => {
    await raw.query('DROP TRIGGER notes_notify_write ON notes');
    expect(await syncWriteTriggers(raw)).toEqual({ created: ['notes'], dropped: [] });
    expect(await triggered()).toEqual([...WATCHED_TABLES].sort());
    const fewer = WATCHED_TABLES.filter((table) => table !== 'notes');
    expect(await syncWriteTriggers(raw, fewer)).toEqual({ created: [], dropped: ['notes'] });
    expect(await triggered()).toEqual([...fewer].sort());
    // the list agrees again: nothing to do
    await syncWriteTriggers(raw);
    expect(await syncWriteTriggers(raw)).toEqual({ created: [], dropped: [] });
  });
});
