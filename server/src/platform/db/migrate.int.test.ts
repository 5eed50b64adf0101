import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/database.js';
import type { Database } from './database.js';
import { migrate } from './migrate.js';

/** The database with every statement it is sent recorded. */
function recording(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const wrapped = Object.create(db) as Database;
  wrapped.query = ((text: string, params?: readonly unknown[]) => {
    statements.push(text);
    return db.query(text, params);
  }) as Database['query'];
  return { db: wrapped, statements };
}

const MIGRATIONS = [
  { version: '0001_first', sql: 'CREATE TABLE migrate_probe (id int PRIMARY KEY);\n' },
  { version: '0002_second', sql: 'ALTER TABLE migrate_probe ADD COLUMN name text;\n' },
];

describe('migrate', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ migrate: false });
  });
  afterAll(() => db.close());

  it('creates its table on a database never migrated, then applies every migration in order', async () => {
    // This test's own database (on PGlite a copy of a migrated template): without the table it is one never migrated.
    await db.query('DROP TABLE IF EXISTS schema_migrations');
    expect(await migrate(db, MIGRATIONS.slice(0, 1))).toEqual(['0001_first']);
    expect(await migrate(db, MIGRATIONS)).toEqual(['0002_second']);
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(['0001_first', '0002_second']);
    await db.query("INSERT INTO migrate_probe (id, name) VALUES (1, 'applied')");
  });

  it('costs one statement and no transaction when nothing is pending (every restart)', async () => {
    const { db: watched, statements } = recording(db);
    let transactions = 0;
    watched.transaction = ((...args: Parameters<Database['transaction']>) => {
      transactions++;
      return db.transaction(...args);
    }) as Database['transaction'];
    expect(await migrate(watched, MIGRATIONS)).toEqual([]);
    expect(statements).toEqual(['SELECT version FROM schema_migrations']);
    expect(transactions).toBe(0);
  });
});
