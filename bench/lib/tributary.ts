import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cleanup } from './cleanup.js';
import { assertLocal, BENCH_HOST, childEnv, freePort, runCommand, spawnChild, waitFor200, type Child } from './process.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The server package to measure: this checkout's, or BENCH_SERVER (a folder
 * holding dist/, migrations/ and hooks/, e.g. the server of a git worktree at
 * another commit, to compare two builds on the same machine).
 */
export const SERVER_DIR = process.env.BENCH_SERVER ? resolve(process.env.BENCH_SERVER) : join(REPO_ROOT, 'server');
/** The program users run: the bundle `npm run build` writes (server/build.mjs). */
export const MAIN_JS = join(SERVER_DIR, 'dist', 'tributary.mjs');

function newestMtime(dir: string, accept: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, accept));
    else if (accept(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The bench runs the compiled server, as users do. `npm run bench` builds
 * first; run directly (`node --import tsx bench/run.ts`) it builds when
 * server/dist is missing and warns when it looks older than the sources.
 */
export function ensureBuilt(): void {
  if (process.env.BENCH_SERVER) {
    if (!existsSync(MAIN_JS)) throw new Error(`BENCH_SERVER: ${MAIN_JS} does not exist`);
    console.log(`Measuring the server in ${SERVER_DIR} (BENCH_SERVER).`);
    return;
  }
  if (!existsSync(MAIN_JS)) {
    console.log('server/dist/tributary.mjs is missing: running `npm run build` …');
    const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (result.status !== 0 || !existsSync(MAIN_JS)) {
      throw new Error('server/dist/tributary.mjs does not exist and `npm run build` failed. Fix the build (or run `npx tsc -b packages/contracts server && node server/build.mjs`) and run the bench again.');
    }
    return;
  }
  const sources = newestMtime(join(REPO_ROOT, 'server', 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  const built = newestMtime(join(REPO_ROOT, 'server', 'dist'), (name) => name.endsWith('.js'));
  if (sources > built) console.warn('warning: server/src has changes newer than server/dist; the bench measures server/dist (run `npm run build`).');
}

export interface TributaryOptions {
  name: string;
  dataDir: string;
  /** PostgreSQL server; unset means embedded PGlite in dataDir */
  databaseUrl?: string;
  rootPassword: string;
  /** the server's default (info) unless given */
  logLevel?: string;
  logFile?: string;
}

export interface RunningTributary {
  url: string;
  child: Child;
  /** ms from spawn to the first 200 from GET /api/v4/version (polled every 10 ms) */
  startupMs: number;
  /** the environment the server runs with; the CLI needs the same one */
  env: NodeJS.ProcessEnv;
}

/**
 * Spawns `node server/dist/tributary.mjs start` (a real `tributary start`) on
 * 127.0.0.1 and a free port, and waits for its first 200. Its log goes to a
 * file in the data directory's parent.
 */
export async function startTributary(cleanup: Cleanup, options: TributaryOptions): Promise<RunningTributary> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://${BENCH_HOST}:${port}`;
    const env = childEnv({
      TRIBUTARY_DATA_DIR: options.dataDir,
      PORT: String(port),
      HOST: BENCH_HOST,
      DATABASE_URL: options.databaseUrl,
      TRIBUTARY_ROOT_PASSWORD: options.rootPassword,
      TRIBUTARY_EXTERNAL_URL: url,
      LOG_LEVEL: options.logLevel,
      // as `npm start` and docs/build-and-start.md's service unit launch it: glibc keeps two malloc
      // arenas instead of one per thread, so what the start-up threads freed is reused (~30 MB less idle)
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    });
    const child = spawnChild(cleanup, {
      name: options.name,
      command: process.execPath,
      // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the servers under test.
      args: [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), MAIN_JS, 'start'],
      env,
      cwd: REPO_ROOT,
      logFile: options.logFile ?? `${options.dataDir}.log`,
    });
    try {
      const startupMs = await waitFor200(`${url}/api/v4/version`, { since: child.spawnedAt, child, timeoutMs: 120_000 });
      return { url, child, startupMs, env };
    } catch (error) {
      await child.stop();
      // Someone took the port between freePort() and listen(): try another.
      if (attempt < 3 && /EADDRINUSE/.test(child.logTail())) continue;
      throw error;
    }
  }
}

/** Runs `tributary <args>` with the server's environment and returns its stdout. */
export async function tributaryCli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const { stdout } = await runCommand(process.execPath, [MAIN_JS, ...args], { env, cwd: REPO_ROOT, timeoutMs: 60_000 });
  return stdout;
}

/** `tributary token create` for root with the `api` scope; returns the secret. */
export async function createRootToken(server: RunningTributary): Promise<string> {
  const stdout = await tributaryCli(server.env, ['token', 'create', '--user', 'root', '--name', `bench-${Date.now()}`, '--scopes', 'api']);
  const token = stdout.trim().split('\n').pop()?.trim();
  if (!token) throw new Error(`tributary token create printed no token:\n${stdout}`);
  return token;
}

/** One REST API call with a personal access token; throws unless 2xx. */
export async function api<T = Record<string, unknown>>(server: { url: string }, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const url = `${server.url}/api/v4${path}`;
  assertLocal(url);
  const response = await fetch(url, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

export interface BenchProject {
  id: number;
  path_with_namespace: string;
}

/** Creates an empty project in root's namespace through the API. */
export function createProject(server: { url: string }, token: string, path: string): Promise<BenchProject> {
  return api<BenchProject>(server, token, 'POST', '/projects', { name: path, path });
}
