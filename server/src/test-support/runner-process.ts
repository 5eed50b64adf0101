import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startRepositoryFixtures, type RepositoryFixtures } from './repository-fixtures.js';

/** The built CLI, as an installation runs it. */
const TRIBUTARY_BIN = fileURLToPath(new URL('../../bin/tributary.js', import.meta.url));

export interface RunnerHarness {
  /** A scratch directory of the test's, removed after all (the runner's builds live in `builds/` under it). */
  readonly dir: string;
  /** The server and its clients (runners long-poll for 5 s at most, so a stopped runner exits quickly). */
  fx(): RepositoryFixtures;
  /** Registers a project runner and starts `tributary runner` with its token; the runner speaks only HTTP to the server. */
  startRunner(projectId: number, options: { concurrent: number; name: string }): Promise<{ id: number; token: string }>;
  /** Everything the runner printed so far (stdout and stderr), for failure messages and log checks. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code (null when it was not running). */
  stop(): Promise<number | null>;
}

/**
 * `tributary runner` as a real child process against a real server (startRepositoryFixtures),
 * running the jobs' scripts. Registers its own beforeAll/afterAll: the runner is stopped before
 * the server closes.
 */
export function runnerHarness(prefix: string): RunnerHarness {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let fx: RepositoryFixtures | undefined;
  let runner: ChildProcess | undefined;
  let output = '';

  async function stop(): Promise<number | null> {
    if (!runner || runner.exitCode !== null || runner.signalCode !== null) return null;
    const exited = new Promise<number | null>((resolve) => runner!.once('exit', (code) => resolve(code)));
    runner.kill('SIGTERM');
    return exited;
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 5 } });
  });
  afterAll(async () => {
    await stop();
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    dir,
    fx: () => fx!,
    async startRunner(projectId, options) {
      const created = (await fx!.root.Users.createCIRunner('project_type', { projectId, runUntagged: true })) as { id: number; token: string };
      runner = spawn(process.execPath, [TRIBUTARY_BIN, 'runner', '--url', fx!.server.url, '--concurrent', String(options.concurrent), '--builds-dir', join(dir, 'builds'), '--name', options.name], {
        env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: created.token },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      runner.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      runner.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return created;
    },
    output: () => output,
    stop,
  };
}
