import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { repositoryPath } from '../git/storage.js';
import { runCli } from './cli.js';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from './database.js';
import { seedPgliteDir } from './pglite-template.js';
import { createTestDatabase } from './postgres-cluster.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { strongPassword } from './server.js';

/**
 * The harnesses of the crash tests: real `tributary start` processes (server-process.ts) that
 * kill themselves at a step named by TRIBUTARY_TEST_CRASH_AT (honoured only with
 * NODE_ENV=test), on one data directory and database, and the git reads that tell what the
 * crash left in the repository. Each harness registers its own beforeAll/afterAll.
 */

/** An API token of root's, made by `tributary token create`; it outlives every restart. */
export async function createRootToken(dataDir: string, databaseUrl: string | undefined, name: string): Promise<string> {
  const created = await runCli(['token', 'create', '--user', 'root', '--name', name, '--scopes', 'api'], { dataDir, databaseUrl });
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim().split('\n').at(-1)!;
}

/** `git <args>` in project `projectId`'s bare repository under `dataDir`, trimmed; no user or system configuration. */
export function gitIn(dataDir: string, projectId: number, args: string[]): string {
  return execFileSync('git', [`--git-dir=${repositoryPath(dataDir, projectId)}`, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' } }).trim();
}

/** Whether `ref` (main by default) holds `commit`: the merge landed exactly when it does. */
export function refContains(dataDir: string, projectId: number, commit: string, ref = 'refs/heads/main'): boolean {
  try {
    gitIn(dataDir, projectId, ['merge-base', '--is-ancestor', commit, ref]);
    return true;
  } catch {
    return false;
  }
}

export interface ServerPair {
  readonly dataDir: string;
  readonly rootPassword: string;
  /** The shared PostgreSQL database, for reading what the servers recorded. */
  db(): TestDatabase;
  /** The server that stays up; it settles what a dead one left (it polls every 200 ms). */
  survivor(): ServerProcess;
  /** Root's API token, good on both servers. */
  token(): string;
  /** Starts a second server on the same database with `env` (its crash point); SIGKILLed after all if still running. */
  startDoomed(env: Record<string, string>): Promise<ServerProcess>;
}

/**
 * Two servers on one PostgreSQL database: a survivor, started once, and any number of doomed
 * servers, each killing itself at its crash point. PostgreSQL only: PGlite runs one process.
 */
export function twoServersOnOneDatabase(prefix: string): ServerPair {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const rootPassword = strongPassword();
  const doomed: ServerProcess[] = [];
  let db: TestDatabase | undefined;
  let survivor: ServerProcess | undefined;
  let token: string | undefined;
  const start = (env: Record<string, string>) => startServerProcess({ dataDir, databaseUrl: db!.url!, rootPassword, env });

  beforeAll(async () => {
    db = await openTestDatabase();
    // The survivor looks for abandoned merges and jobs every 200 ms instead of every 5 s.
    survivor = await start({ TRIBUTARY_JOB_POLL_MS: '200' });
    token = await createRootToken(dataDir, db.url, 'survivor');
  }, 120_000);

  afterAll(async () => {
    for (const server of doomed) await server.stop('SIGKILL');
    await survivor?.stop();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    dataDir,
    rootPassword,
    db: () => db!,
    survivor: () => survivor!,
    token: () => token!,
    async startDoomed(env) {
      const server = await start(env);
      doomed.push(server);
      return server;
    },
  };
}

export interface RestartableServer {
  readonly dataDir: string;
  /** The PostgreSQL database's URL; undefined on PGlite (the database lives in the data directory). */
  databaseUrl(): string | undefined;
  /** Starts a server on the data directory and database with `env` (its crash point, if any); the one running is stopped after all. */
  start(env?: Record<string, string>): Promise<ServerProcess>;
}

/**
 * One server at a time on one data directory and database (PostgreSQL or PGlite, as the test
 * project runs), killed and started again: each start finds what the previous process left.
 */
export function restartableServer(prefix: string): RestartableServer {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const rootPassword = strongPassword();
  let databaseUrl: string | undefined;
  let dropDatabase = async () => undefined as void;
  let running: ServerProcess | undefined;

  beforeAll(async () => {
    if (testDatabaseKind() === 'postgres') {
      const database = await createTestDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    } else {
      await seedPgliteDir(join(dataDir, 'pglite'));
    }
  });

  afterAll(async () => {
    await running?.stop();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    dataDir,
    databaseUrl: () => databaseUrl,
    async start(env = {}) {
      running = await startServerProcess({ dataDir, databaseUrl, rootPassword, env });
      return running;
    },
  };
}
