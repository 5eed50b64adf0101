/** Helpers of the pipeline benchmarks: waiting for a state, and running the real `tributary runner`. */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Cleanup } from './cleanup.js';
import { childEnv, sleep, spawnChild, type Child } from './process.js';
import { MAIN_JS, REPO_ROOT, type RunningTributary } from './tributary.js';

/** Reads until `read` answers something truthy; throws after `timeoutMs`. */
export async function until<T>(read: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A job as the jobs API answers it (the fields the benchmarks read). */
export interface Job {
  id: number;
  name: string;
  status: string;
  started_at: string | null;
  pipeline: { id: number; sha: string };
}

export function startRunner(cleanup: Cleanup, server: RunningTributary, token: string, dir: string, name: string): Child {
  return spawnChild(cleanup, {
    name,
    command: process.execPath,
    args: [MAIN_JS, 'runner', '--url', server.url, '--builds-dir', join(dir, `builds-${name.replace(/\W+/g, '-')}`), '--name', name],
    env: childEnv({ TRIBUTARY_RUNNER_TOKEN: token }),
    cwd: REPO_ROOT,
    logFile: join(dir, `${name.replace(/\W+/g, '-')}.log`),
  });
}
