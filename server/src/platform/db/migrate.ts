import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from './database.js';
import { MIGRATIONS_DIR } from '../paths.js';

export { MIGRATIONS_DIR };

export interface Migration {
  version: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: file.replace(/\.sql$/, ''), sql: readFileSync(`${dir}/${file}`, 'utf8') }));
}

/**
 * Applies pending migrations, each in its own transaction. An advisory lock
 * makes concurrent `tributary start` processes on one server take turns.
 * Returns the versions applied.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  const done = await appliedVersions(db);
  const applied: string[] = [];
  for (const migration of migrations.filter((m) => !done.has(m.version))) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(727100)');
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (existing.rowCount > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  return applied;
}

/** PostgreSQL's undefined_table. */
const UNDEFINED_TABLE = '42P01';

/**
 * The versions already applied. The common case, nothing pending, costs this one query and no
 * transaction (it runs at every start; a `CREATE TABLE IF NOT EXISTS` before it was a second
 * statement, and DDL, on the path of every warm restart). Only a database that has never been
 * migrated creates the table here.
 */
async function appliedVersions(db: Database): Promise<Set<string>> {
  try {
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
    return new Set(rows.map((row) => row.version));
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
    await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    return new Set();
  }
}

/**
 * Splits a migration file on semicolons that end a line. Migrations are
 * plain DDL (no function bodies), which keeps this honest; node-postgres
 * could run them whole, but PGlite's extended protocol takes one statement.
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
