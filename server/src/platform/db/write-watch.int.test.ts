import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';
import { WATCHED_TABLES } from './write-watch.js';

/** Every table a cache reads announces its writes to other processes (migration 0010). */
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
