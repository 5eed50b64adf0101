import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/database.js';
import { migrate } from './migrate.js';

/** The two drivers must agree on what `query` returns; repositories rely on it. */
describe('Database adapter', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('counts rows returned by a SELECT and rows touched by an UPDATE', async () => {
    await db.query('CREATE TABLE adapter_probe (id int)');
    await db.query('INSERT INTO adapter_probe VALUES (1), (2), (3)');
    expect((await db.query('SELECT 1 FROM adapter_probe WHERE id > 1')).rowCount).toBe(2);
    expect((await db.query('SELECT 1 FROM adapter_probe WHERE id > 9')).rowCount).toBe(0);
    expect((await db.query('UPDATE adapter_probe SET id = id + 10 WHERE id < 3')).rowCount).toBe(2);
  });

  it('returns bigint columns as numbers', async () => {
    const { rows } = await db.query<{ n: number }>('SELECT 9007199254740::bigint AS n');
    expect(rows[0]!.n).toBe(9007199254740);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO adapter_probe VALUES (100)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await db.query('SELECT 1 FROM adapter_probe WHERE id = 100')).rowCount).toBe(0);
  });

  it('survives the server dropping its connections, and LISTEN comes back', async () => {
    if (db.kind !== 'postgres') return;
    const received: string[] = [];
    await db.listen('adapter_probe_channel', (payload) => received.push(payload));
    // What a PostgreSQL restart or an administrator does: end every other backend of this database.
    await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const deadline = Date.now() + 15_000;
    while (!received.includes('after') && Date.now() < deadline) {
      await db.query("SELECT pg_notify('adapter_probe_channel', 'after')").catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(received).toContain('after');
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('applies migrations once', async () => {
    expect(await migrate(db)).toEqual([]);
  });
});
