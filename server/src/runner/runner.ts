import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createRunnerClient, RunnerHttpError } from './client.js';
import { runJob } from './job-runner.js';

export interface RunnerOptions {
  url: string;
  token: string;
  concurrent: number;
  buildsDir: string;
  executor: 'shell' | 'docker';
  name: string;
  log?: (message: string) => void;
  /** how often a running job's log is sent (ms) */
  updateIntervalMs?: number;
}

/** gitlab-runner's backoff after a failed request: doubling from 1 s up to a minute. */
export function nextBackoff(previous: number): number {
  return previous === 0 ? 1000 : Math.min(previous * 2, 60_000);
}

/** The runner's system id, kept in the builds directory so a restart is the same runner manager. */
async function systemId(buildsDir: string): Promise<string> {
  const file = join(buildsDir, '.runner_system_id');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (/^s_[0-9a-f]{12}$/.test(existing.trim())) return existing.trim();
  const id = `s_${randomBytes(6).toString('hex')}`;
  await writeFile(file, id, { mode: 0o600 });
  return id;
}

/**
 * `tributary runner`: verifies its token, then asks for jobs (the server may hold each request
 * while none waits) with up to `concurrent` running at once. `stop()` ends the polling and stops
 * the running jobs, which report failed (runner_system_failure) before `run()` returns.
 */
export function createRunner(options: RunnerOptions) {
  const log = options.log ?? ((message: string) => console.log(`${new Date().toISOString()} ${message}`));
  const shutdown = new AbortController();
  const running = new Set<Promise<unknown>>();
  let wake: (() => void) | undefined;

  async function run(): Promise<void> {
    const buildsDir = resolve(options.buildsDir);
    await mkdir(buildsDir, { recursive: true, mode: 0o700 });
    const client = createRunnerClient({ url: options.url, token: options.token, systemId: await systemId(buildsDir), name: options.name, executor: options.executor });
    const { id } = await client.verify();
    log(`runner ${id} (${options.name}) verified at ${options.url}; ${options.executor} executor, up to ${options.concurrent} job(s) at once, builds in ${buildsDir}`);
    let lastUpdate: string | undefined;
    let backoff = 0;
    while (!shutdown.signal.aborted) {
      if (running.size >= options.concurrent) {
        await Promise.race([...running, new Promise<void>((r) => (wake = r))]);
        continue;
      }
      try {
        const answer = await client.requestJob(lastUpdate, shutdown.signal);
        lastUpdate = answer.lastUpdate;
        if (answer.job) {
          backoff = 0;
          const job = answer.job;
          log(`job ${job.id} received (${job.variables?.find((v) => v.key === 'CI_PROJECT_PATH')?.value ?? job.job_info?.project_name ?? 'project'}: ${job.job_info?.name ?? ''})`);
          const task = runJob(job, { client, buildsDir, executor: options.executor, shutdown: shutdown.signal, log, updateIntervalMs: options.updateIntervalMs })
            .then((outcome) => log(`job ${job.id} finished: ${outcome.state}${outcome.failureReason ? ` (${outcome.failureReason})` : ''}`))
            .finally(() => running.delete(task));
          running.add(task);
          continue;
        }
        if (answer.status === 403) throw new RunnerHttpError('the server refused the runner token (403); stopping', 403);
        if (answer.status === 204) {
          backoff = 0;
          // the server answered at once (no long polling): wait gitlab-runner's check interval
          await sleep(3000, shutdown.signal);
          continue;
        }
        backoff = nextBackoff(backoff);
        log(`job request answered ${answer.status}; retrying in ${backoff / 1000}s`);
      } catch (error) {
        if (shutdown.signal.aborted) break;
        if (error instanceof RunnerHttpError && error.status === 403) throw error;
        backoff = nextBackoff(backoff);
        log(`job request failed (${error instanceof Error ? error.message : String(error)}); retrying in ${backoff / 1000}s`);
      }
      await sleep(backoff, shutdown.signal);
    }
    if (running.size) log(`stopping: waiting for ${running.size} job(s) to finish`);
    await Promise.allSettled([...running]);
  }

  return {
    run,
    /** Graceful stop: no new jobs; running jobs are stopped and reported. */
    stop() {
      shutdown.abort();
      wake?.();
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
