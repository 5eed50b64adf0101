/** Idle runners' long polls, against Tributary or a bare Node server, and the CPU they cost. */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LOAD_SECONDS } from './common.js';
import { type Cleanup } from '../lib/cleanup.js';
import { BENCH_HOST, childEnv, cpuMs, freePort, sleep, spawnChild, type Child } from '../lib/process.js';
import { until } from '../lib/runner-helpers.js';

/** The runner protocol's long poll in the idle-runner run (GitLab Workhorse's default is 50 s). */
export const LONG_POLL_SECONDS = 50;

export /** `count` clients asking for jobs in a loop (as idle runners do), until stopped. */
function pollers(url: string, tokens: string[]): { stop(): Promise<void>; answers(): number } {
  const controller = new AbortController();
  let answered = 0;
  const loops = tokens.map(async (token) => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${url}/api/v4/jobs/request`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, info: { name: 'bench-idle', version: '17.5.0' } }),
          signal: controller.signal,
        });
        await response.arrayBuffer();
        answered += 1;
        if (response.status !== 204) await sleep(1000);
      } catch {
        if (!controller.signal.aborted) await sleep(1000);
      }
    }
  });
  return {
    answers: () => answered,
    async stop() {
      controller.abort();
      await Promise.allSettled(loops);
    },
  };
}


export async function bareLongPollServer(cleanup: Cleanup, dir: string): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const program = `require('node:http').createServer((req,res)=>{req.resume();const t=setTimeout(()=>{res.statusCode=204;res.end();},${LONG_POLL_SECONDS * 1000});req.on('close',()=>clearTimeout(t));}).listen(${port},'${BENCH_HOST}')`;
  const child = spawnChild(cleanup, { name: 'bare long-poll server', command: process.execPath, args: ['-e', program], env: childEnv(), logFile: join(dir, 'bare-long-poll.log') });
  const url = `http://${BENCH_HOST}:${port}`;
  await until(async () => fetch(url, { method: 'POST', signal: AbortSignal.timeout(200) }).then(() => true, (error: Error) => error.name === 'TimeoutError'), 'the bare server');
  return { url, child };
}


export async function idleShare(pid: number, postmaster: number | undefined): Promise<{ server: number; db?: number }> {
  const [cpu0, db0, t0] = [cpuMs(pid), postmaster ? cpuMs(postmaster, true) : undefined, performance.now()];
  await sleep(LOAD_SECONDS * 1000);
  const [cpu1, db1, t1] = [cpuMs(pid), postmaster ? cpuMs(postmaster, true) : undefined, performance.now()];
  const wall = t1 - t0;
  // A backend that exits takes its CPU time with it: a negative difference is no figure.
  const db = db0 === undefined || db1 === undefined || db1 < db0 ? undefined : (db1 - db0) / wall;
  return { server: ((cpu1 ?? 0) - (cpu0 ?? 0)) / wall, db };
}
