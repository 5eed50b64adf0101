import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Throwaway PostgreSQL clusters for tests.
 *
 * The `integration-postgres` Vitest project starts one cluster per run (see
 * postgres-global-setup.ts) unless DATABASE_URL names a server to use instead,
 * and hands its admin URL to the test workers. Every test file then creates its
 * own database with `createTestDatabase()`, so files never see each other's rows.
 */

const run = promisify(execFile);

/** The key under which the global setup provides the admin URL (see `inject`). */
export const ADMIN_URL_KEY = 'tributaryPostgresAdminUrl';
/** The same URL as an environment variable: a fallback for code running outside Vitest's `inject`. */
export const ADMIN_URL_ENV = 'TRIBUTARY_TEST_POSTGRES_URL';
/** The key (and the variable) naming the migrated template database of the run (see `createMigratedTemplate`). */
export const TEMPLATE_KEY = 'tributaryPostgresTemplate';
export const TEMPLATE_ENV = 'TRIBUTARY_TEST_POSTGRES_TEMPLATE';

declare module 'vitest' {
  export interface ProvidedContext {
    tributaryPostgresAdminUrl: string;
    tributaryPostgresTemplate: string;
  }
}

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres, superuser, trust authentication. */
  adminUrl: string;
  port: number;
  /** The temp directory holding the data directory, the socket and postgres.log. */
  dir: string;
  stop(): Promise<void>;
}

/* ------------------------------------------------------------------ binaries */

function hasServerBinaries(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
}

function versionOf(name: string): number[] {
  return name.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * Where initdb, pg_ctl and postgres live: $PG_BINDIR, `pg_config --bindir`,
 * Debian's /usr/lib/postgresql/<highest version>/bin, then PATH.
 */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const candidates: string[] = [];
  if (env.PG_BINDIR) candidates.push(env.PG_BINDIR);
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // pg_config is not installed (it comes with libpq-dev); keep looking.
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)*$/.test(name))
      .sort((a, b) => compareVersions(versionOf(b), versionOf(a)));
    candidates.push(...versions.map((version) => join(debianRoot, version, 'bin')));
  }
  candidates.push(...(env.PATH ?? '').split(delimiter).filter(Boolean));
  const found = candidates.find(hasServerBinaries);
  if (!found) {
    throw new Error(
      'PostgreSQL server binaries (initdb, pg_ctl) were not found in $PG_BINDIR, `pg_config --bindir`, ' +
        '/usr/lib/postgresql/*/bin or PATH. Install them (Debian: apt-get install postgresql) ' +
        'or set DATABASE_URL to a PostgreSQL server whose user may create databases.',
    );
  }
  return found;
}

/* ------------------------------------------------------------- running as root */

function userExists(name: string): boolean {
  return spawnSync('id', ['-u', name], { stdio: 'ignore' }).status === 0;
}

/**
 * initdb and postgres refuse to run as root. As root, the cluster belongs to
 * Debian's `postgres` user, or to a system user `tributary-test` created here.
 */
function clusterOwner(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'tributary-test']) if (userExists(name)) return name;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'tributary-test'], { stdio: 'pipe' });
  return 'tributary-test';
}

function idsOf(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function asOwner(owner: string | undefined, file: string, args: string[]): [string, string[]] {
  return owner ? ['runuser', ['-u', owner, '--', file, ...args]] : [file, args];
}

/** A child environment without PG* variables that could redirect initdb or pg_ctl. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^PG/.test(key)) env[key] = value;
  env.LC_ALL = 'C.UTF-8';
  return env;
}

/* ---------------------------------------------------------------- the cluster */

const CLUSTER_PREFIX = 'trpg-';
const OWNER_FILE = 'owner.pid';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stops and removes clusters left behind by test runs that were killed before
 * their teardown (their owner process is gone). Best effort.
 */
export function reapStaleClusters(baseDir: string, binDir: string, owner: string | undefined): void {
  let entries: string[];
  try {
    entries = readdirSync(baseDir).filter((name) => name.startsWith(CLUSTER_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = join(baseDir, name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8').trim());
    } catch {
      continue; // being created right now, or not ours
    }
    if (!Number.isSafeInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    const dataDir = join(dir, 'data');
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      const [file, args] = asOwner(owner, join(binDir, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '10']);
      spawnSync(file, args, { stdio: 'ignore', env: cleanEnv() });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function execOrExplain(file: string, args: string[], what: string, log?: string): Promise<void> {
  try {
    await run(file, args, { env: cleanEnv(), timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    const details = [e.stderr?.trim(), e.stdout?.trim(), log ? `postgres.log:\n${tail(log)}` : ''].filter(Boolean).join('\n');
    throw new Error(`${what} failed: ${e.message}\n${details}`, { cause: error });
  }
}

async function waitUntilReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * Creates a cluster in a temp dir (`initdb -A trust -U postgres`), starts it on
 * a free port on 127.0.0.1 with durability switched off (tests need speed, not
 * crash safety), and waits until it answers. `stop()` shuts it down and removes
 * the directory; an exit hook does the same if the process ends first.
 */
export async function startPostgresCluster(options: { binDir?: string } = {}): Promise<PostgresCluster> {
  const binDir = options.binDir ?? findPostgresBinDir();
  const owner = clusterOwner();
  // As root the cluster owner must reach the directory: /tmp is world-traversable.
  const baseDir = owner ? '/tmp' : tmpdir();
  reapStaleClusters(baseDir, binDir, owner);
  const dir = mkdtempSync(join(baseDir, CLUSTER_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
  if (owner) {
    const { uid, gid } = idsOf(owner);
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const pgCtl = join(binDir, 'pg_ctl');

  const stopSync = (): void => {
    const [file, args] = asOwner(owner, pgCtl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '10']);
    if (existsSync(join(dataDir, 'postmaster.pid'))) spawnSync(file, args, { stdio: 'ignore', env: cleanEnv() });
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopSync);

  try {
    const [initFile, initArgs] = asOwner(owner, join(binDir, 'initdb'), [
      '-D', dataDir, '-A', 'trust', '-U', 'postgres',
      // The same encoding and collation as PGlite, so ORDER BY agrees on both.
      '--encoding=UTF8', '--lc-collate=C', '--lc-ctype=C.UTF-8', '--lc-messages=C',
      '--no-sync',
    ]);
    await execOrExplain(initFile, initArgs, 'initdb');

    let lastError: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      const serverOptions = [
        `-p ${port}`,
        `-k '${dir}'`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=200',
      ].join(' ');
      const [file, args] = asOwner(owner, pgCtl, ['start', '-D', dataDir, '-l', log, '-w', '-t', '60', '-o', serverOptions]);
      try {
        await execOrExplain(file, args, 'pg_ctl start', log);
      } catch (error) {
        lastError = error;
        // Another process took the port between freePort() and postgres' bind: try another.
        if (/could not bind|Address already in use/i.test(tail(log, 50))) continue;
        throw error;
      }
      const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
      await waitUntilReady(adminUrl);
      return {
        adminUrl,
        port,
        dir,
        async stop() {
          process.removeListener('exit', stopSync);
          const [stopFile, stopArgs] = asOwner(owner, pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '30']);
          await execOrExplain(stopFile, stopArgs, 'pg_ctl stop', log).catch(() => stopSync());
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    throw lastError;
  } catch (error) {
    process.removeListener('exit', stopSync);
    stopSync();
    throw error;
  }
}

/* --------------------------------------------------------- per-file databases */

/**
 * The admin URL of the server tests create their databases on: DATABASE_URL
 * when set, else the cluster the global setup started (provided to workers
 * through Vitest's `inject`, or the TRIBUTARY_TEST_POSTGRES_URL variable).
 */
export async function postgresAdminUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  try {
    const { inject } = await import('vitest');
    const provided = inject(ADMIN_URL_KEY);
    if (provided) return provided;
  } catch {
    // Not inside a Vitest worker.
  }
  if (process.env[ADMIN_URL_ENV]) return process.env[ADMIN_URL_ENV];
  throw new Error(
    'No PostgreSQL server for tests: set DATABASE_URL, or run the tests through the ' +
      '`integration-postgres` Vitest project, whose global setup starts a throwaway cluster.',
  );
}

export interface TestPostgresDatabase {
  name: string;
  url: string;
  /** Drops the database, ending any connections still open to it. */
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The migrated template database of this run, if the global setup made one. */
async function templateName(): Promise<string | undefined> {
  try {
    const { inject } = await import('vitest');
    const provided = inject(TEMPLATE_KEY);
    if (provided) return provided;
  } catch {
    // Not inside a Vitest worker.
  }
  return process.env[TEMPLATE_ENV] || undefined;
}

/**
 * Creates a database named `name` and runs `prepare` on it (the migrations): the template the
 * run's databases are copied from. Nobody may stay connected to it (PostgreSQL copies only an
 * unused template), so `prepare` closes what it opens. Returns a function that drops it.
 */
export async function createTemplateDatabase(adminUrl: string, name: string, prepare: (url: string) => Promise<void>): Promise<() => Promise<void>> {
  const drop = () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)).then(() => undefined);
  await drop();
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await prepare(url.toString());
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  return drop;
}

/**
 * Creates a fresh, uniquely named database; one per test file keeps files isolated. Empty by
 * default; with `migrated`, a copy of the run's migrated template when the global setup made one
 * (`CREATE DATABASE … TEMPLATE`: a file copy, about 50 ms of the server's CPU against 300 ms and
 * two seconds of running every migration), else empty too. Callers migrate it either way, which on
 * a copy finds nothing to do.
 */
export async function createTestDatabase(adminUrl?: string, options: { migrated?: boolean } = {}): Promise<TestPostgresDatabase> {
  const admin = adminUrl ?? (await postgresAdminUrl());
  const name = `tributary_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await templateName() : undefined;
  const from = template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : '';
  await withAdmin(admin, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${from}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}
