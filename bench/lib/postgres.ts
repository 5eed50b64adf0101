import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, startPostgresCluster } from '../../server/src/test-support/postgres-cluster.js';
import type { Cleanup } from './cleanup.js';

export interface BenchDatabase {
  /** the database Tributary gets as DATABASE_URL */
  url: string;
  /** e.g. "PostgreSQL 15.18, throwaway cluster (fsync off)" */
  description: string;
  /** the postmaster's pid when the cluster is ours (its backends are its children), for CPU accounting */
  postmasterPid?: number;
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version.split(' ')[0] ?? '?';
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Transactions committed or rolled back in the database so far (from
 * pg_stat_database). Every statement outside a transaction counts as one,
 * so the difference across a load run divided by its requests is the number
 * of round trips a request costs. The statistics lag by up to a second
 * (PostgreSQL 15+ flushes them when a backend goes idle), so wait before reading.
 */
export async function transactionCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      'SELECT (xact_commit + xact_rollback)::text AS count FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A fresh, empty database for one benchmark: on the server DATABASE_URL
 * names (its user must be allowed to create databases), else on a throwaway
 * cluster started here with the test suite's helper. Both are undone by
 * `cleanup`.
 */
export async function benchDatabase(cleanup: Cleanup): Promise<BenchDatabase> {
  let adminUrl = process.env.DATABASE_URL;
  let where = 'the server in DATABASE_URL';
  let postmasterPid: number | undefined;
  if (!adminUrl) {
    const cluster = await startPostgresCluster();
    cleanup.defer('stop the PostgreSQL cluster', () => cluster.stop());
    adminUrl = cluster.adminUrl;
    where = 'throwaway local cluster, fsync off';
    try {
      postmasterPid = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
    } catch {
      // no CPU figures for PostgreSQL then
    }
  }
  const database = await createTestDatabase(adminUrl);
  cleanup.defer(`drop database ${database.name}`, () => database.drop());
  return { url: database.url, description: `PostgreSQL ${await serverVersion(adminUrl)} (${where})`, postmasterPid };
}
