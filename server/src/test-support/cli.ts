import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../platform/config.js';
import { startServer, type RunningServer } from '../server.js';
import { freePort } from './postgres-cluster.js';

/** The repository root: `tributary` runs from here with tsx, as in development. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `tributary <args>` (`node --import tsx server/src/main.ts`) with only
 * the environment given here: the data directory and, on PostgreSQL, the
 * database URL. Nothing from the test process's environment leaks in.
 */
export function runCli(args: string[], env: { dataDir: string; databaseUrl?: string }): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TRIBUTARY_DATA_DIR: env.dataDir,
    LOG_LEVEL: 'warn',
    ...(env.databaseUrl ? { DATABASE_URL: env.databaseUrl } : {}),
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/main.ts', ...args],
      { cwd: REPO_ROOT, env: childEnv, timeout: 90_000, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts a real server on an existing data directory (startTestServer always starts from a fresh one). */
export async function startServerOn(dataDir: string, databaseUrl: string | undefined): Promise<RunningServer> {
  const port = await freePort();
  const config = loadConfig({}, { dataDir, databaseUrl, host: '127.0.0.1', port, externalUrl: `http://127.0.0.1:${port}`, logLevel: 'warn' });
  return startServer(config);
}
