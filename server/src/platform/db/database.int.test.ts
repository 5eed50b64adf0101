import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/database.js';
import { isUniqueViolation } from './database.js';
import { migrate } from './migrate.js';
import { openPglite, SHARED_BUFFERS } from './pglite.js';
import { seedPgliteDir } from '../../test-support/pglite-template.js';

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

  it("reports PostgreSQL's error fields, which callers test", async () => {
    await db.query('CREATE TABLE adapter_unique (name text CONSTRAINT adapter_unique_name UNIQUE)');
    await db.query(`INSERT INTO adapter_unique VALUES ('a')`);
    const error = await db.query(`INSERT INTO adapter_unique VALUES ('a')`).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'adapter_unique_name' });
    expect(isUniqueViolation(error)).toBe(true);
    // A transaction that meets it rolls back, and the caller gets the same error.
    const inTransaction = await db.transaction((tx) => tx.query(`INSERT INTO adapter_unique VALUES ('a')`)).catch((failure: unknown) => failure);
    expect(inTransaction).toMatchObject({ code: '23505' });
    expect((await db.query('SELECT 1 FROM adapter_unique')).rowCount).toBe(1);
  });

  it('delivers notifications until the listener unsubscribes', async () => {
    const received: string[] = [];
    const unsubscribe = await db.listen('adapter_probe_notes', (payload) => received.push(payload));
    await db.query("SELECT pg_notify('adapter_probe_notes', 'first')");
    await expect.poll(() => received).toEqual(['first']);
    await unsubscribe();
    await db.query("SELECT pg_notify('adapter_probe_notes', 'second')");
    await db.query('SELECT 1');
    expect(received).toEqual(['first']);
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

  it('starts embedded PostgreSQL with the small shared memory a quick start needs', async () => {
    if (db.kind !== 'pglite') return;
    const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(rows[0]!.shared_buffers).toBe(SHARED_BUFFERS);
  });

  it('applies migrations once', async () => {
    expect(await migrate(db)).toEqual([]);
  });
});

describe('Embedded PostgreSQL on its own thread', () => {
  it('says why on every statement when PostgreSQL cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trdb-broken-'));
    try {
      // A data directory PostgreSQL refuses: a version file of another major version.
      writeFileSync(join(dir, 'PG_VERSION'), '9\n');
      const broken = openPglite(dir);
      await expect(broken.query('SELECT 1')).rejects.toThrow('PGlite failed to initialize properly');
      await expect(broken.query('SELECT 1')).rejects.toThrow('PGlite failed to initialize properly');
      await broken.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs statements asked while it starts, in order, and closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trdb-early-'));
    await seedPgliteDir(join(dir, 'pglite'));
    const fresh = openPglite(join(dir, 'pglite'));
    const answers = await Promise.all([1, 2, 3].map((n) => fresh.query<{ n: number }>('SELECT $1::int AS n', [n])));
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual([1, 2, 3]);
    await fresh.close();
    await expect(fresh.query('SELECT 1')).rejects.toThrow(/stopped/);
    rmSync(dir, { recursive: true, force: true });
  });
});
