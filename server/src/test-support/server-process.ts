import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './postgres-cluster.js';
import { TEST_SERVER_TIMING_ENV } from './server-timing.js';

/** The repository root: `tributary start` runs from here with tsx, as in development. */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Resolves with the signal (or exit code) the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What the process printed so far (stdout and stderr). */
  log(): string;
  /** Sends `signal` (SIGTERM by default) and waits for the process to end; nothing if it already has. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * A real `tributary start` in a child process (tsx), for tests that need several servers on
 * one database or a server that is killed: nothing of the test process's environment leaks
 * in except PATH and HOME. Resolves once the server answers HTTP.
 */
export async function startServerProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  rootPassword: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    TRIBUTARY_DATA_DIR: options.dataDir,
    TRIBUTARY_ROOT_PASSWORD: options.rootPassword,
    TRIBUTARY_EXTERNAL_URL: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...TEST_SERVER_TIMING_ENV,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const handle: ServerProcess = {
    child,
    url,
    exited,
    log: () => log,
    async stop(signal = 'SIGTERM') {
      if (running()) {
        child.kill(signal);
        // A stopped (SIGSTOP) process must run again to act on SIGTERM.
        child.kill('SIGCONT');
      }
      await exited;
    },
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!running()) throw new Error(`tributary start exited early:\n${log.slice(-4000)}`);
    const ok = await fetch(`${url}/api/v4/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return handle;
    if (Date.now() > deadline) {
      await handle.stop('SIGKILL');
      throw new Error(`tributary start did not answer:\n${log.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
