import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Cleanup } from '../lib/cleanup.js';
import { benchDatabase } from '../lib/postgres.js';
import { cpuMs, sleep } from '../lib/process.js';
import { formatMs, formatRatio } from '../lib/stats.js';
import { api, createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** Cars on the train. */
const CARS = Number(process.env.BENCH_TRAIN_CARS ?? 10);
/** How long each job "runs" on the simulated runners (the pipeline's own time). */
const JOB_MS = Number(process.env.BENCH_TRAIN_JOB_MS ?? 2_000);
/** Runners taking jobs at once: every train pipeline can run in parallel, as GitLab's do. */
const RUNNERS = CARS;

const CI = ['stages: [test]', 'test:', '  stage: test', '  script: make test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');
const RUNNER_INFO = { name: 'bench-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, raw_variables: true, return_exit_code: true } };

interface Pipeline {
  id: number;
  created_at: string;
  finished_at: string | null;
  status: string;
}

/**
 * `RUNNERS` clients of the runner protocol: each asks for a job, holds it `JOB_MS` (the job's
 * run), and reports success; until stopped.
 */
function runners(url: string, token: string): { stop(): Promise<void>; jobs(): number } {
  const controller = new AbortController();
  let jobs = 0;
  const loops = Array.from({ length: RUNNERS }, async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${url}/api/v4/jobs/request`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, info: RUNNER_INFO, last_update: '' }),
          signal: controller.signal,
        });
        if (response.status !== 201) {
          await response.arrayBuffer();
          await sleep(100);
          continue;
        }
        const job = (await response.json()) as { id: number; token: string };
        await sleep(JOB_MS);
        const done = await fetch(`${url}/api/v4/jobs/${job.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'JOB-TOKEN': job.token },
          body: JSON.stringify({ token: job.token, state: 'success', exit_code: 0, info: RUNNER_INFO }),
          signal: controller.signal,
        });
        await done.arrayBuffer();
        jobs += 1;
      } catch {
        if (!controller.signal.aborted) await sleep(200);
      }
    }
  });
  return {
    jobs: () => jobs,
    async stop() {
      controller.abort();
      await Promise.allSettled(loops);
    },
  };
}

/**
 * A merge train of CARS merge requests whose pipelines pass: the wall time from the last car
 * added to the last car merged, against the sum of the train pipelines' own durations (created
 * to finished), and the server's CPU per car. One `tributary start` on PostgreSQL; the runners
 * are protocol clients in the bench process whose jobs take JOB_MS.
 */
export async function benchMergeTrain(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-train-');
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (merge train)', dataDir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-merge-train');
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(server, token, method, path, body);
  await call('POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Add CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }] });
  await call('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true, merge_trains_enabled: true });
  const runnerToken = (await call<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true, description: 'bench train runner' })).token;

  const iids: number[] = [];
  for (let i = 0; i < CARS; i++) {
    const branch = `car-${i}`;
    await call('POST', `/projects/${project.id}/repository/commits`, { branch, start_branch: 'main', commit_message: `Car ${i}`, actions: [{ action: 'create', file_path: `cars/${i}.txt`, content: `${i}\n` }] });
    iids.push((await call<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Car ${i}` })).iid);
  }
  const pool = runners(server.url, runnerToken);
  try {
    // The merge requests' own pipelines (merged results) run and finish before the train starts.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const pending = await call<Pipeline[]>('GET', `/projects/${project.id}/pipelines?per_page=100`);
      if (pending.length >= CARS && pending.every((pipeline) => ['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status))) break;
      if (Date.now() > deadline) throw new Error('the merge requests\u2019 pipelines did not finish');
      await sleep(200);
    }

    const cpuBefore = cpuMs(server.child.pid);
    for (const iid of iids) await call('POST', `/projects/${project.id}/merge_trains/merge_requests/${iid}`, {});
    const lastAdded = performance.now();
    const last = iids.at(-1)!;
    const trainDeadline = Date.now() + 300_000;
    while ((await call<{ state: string }>('GET', `/projects/${project.id}/merge_requests/${last}`)).state !== 'merged') {
      if (Date.now() > trainDeadline) throw new Error('the train did not merge its last car within 5 minutes');
      await sleep(50);
    }
    const wallMs = performance.now() - lastAdded;
    const cpuAfter = cpuMs(server.child.pid);

    const cars = await call<Array<{ status: string; pipeline: { id: number } | null }>>('GET', `/projects/${project.id}/merge_trains?scope=complete&per_page=100`);
    if (cars.length !== CARS || cars.some((car) => car.status !== 'merged')) throw new Error(`expected ${CARS} merged cars, found ${cars.map((car) => car.status).join(', ')}`);
    // every train pipeline that ran, the restarted ones too: what the train made the runners do
    const trainPipelines: Pipeline[] = [];
    for (const iid of iids) {
      const listed = await call<Pipeline[]>('GET', `/projects/${project.id}/pipelines?ref=${encodeURIComponent(`refs/merge-requests/${iid}/train`)}&per_page=100`);
      for (const { id } of listed) trainPipelines.push(await call<Pipeline>('GET', `/projects/${project.id}/pipelines/${id}`));
    }
    const durations = trainPipelines.filter((pipeline) => pipeline.finished_at).map((pipeline) => new Date(pipeline.finished_at!).getTime() - new Date(pipeline.created_at).getTime());
    const sumMs = durations.reduce((sum, ms) => sum + ms, 0);
    const ratio = wallMs / sumMs;
    const longestMs = Math.max(...durations);
    const serverCpuPerCar = ((cpuAfter ?? 0) - (cpuBefore ?? 0)) / CARS;
    await server.child.stop();
    return {
      rows: [
        {
          benchmark: `A merge train of ${CARS} passing cars: last car added → last car merged, against the sum of the train pipelines' durations`,
          tributary: formatMs(wallMs),
          baseline: `${formatMs(sumMs)} (${trainPipelines.length} pipelines, jobs of ${formatMs(JOB_MS)})`,
          ratio: formatRatio(ratio),
          target: '≤ 1× (the cars run in parallel)',
          verdict: verdict(ratio <= 1),
        },
        {
          benchmark: 'A merge train: the same wall time against its longest pipeline (a train that only waited for its slowest car)',
          tributary: formatMs(wallMs),
          baseline: formatMs(longestMs),
          ratio: formatRatio(wallMs / longestMs),
          target: '(information)',
          verdict: 'info',
        },
        {
          benchmark: 'A merge train: server CPU per car (its own process, git children not included)',
          tributary: formatMs(serverCpuPerCar),
          baseline: '—',
          ratio: '—',
          target: '(information)',
          verdict: 'info',
        },
      ],
      notes: [
        `Merge train: Tributary on ${database.description}, one \`tributary start\`. ${CARS} merge requests each adding one file, added to the train of main one after the other ` +
          `(\`POST …/merge_trains/merge_requests/:iid\`); ${RUNNERS} runner-protocol clients in the bench process hold each job ${formatMs(JOB_MS)} and report success. ` +
          `Wall time from the last add answered to the last merge request merged (polled every 50 ms). The sum counts every train pipeline created, ` +
          `restarted ones included (${trainPipelines.length} for ${CARS} cars), from created to finished; a ratio under 1 means the train ran its pipelines in parallel ` +
          `and added less than their own time. Server CPU per car: the server process's own CPU from /proc over the whole train, divided by ${CARS}. ` +
          `Runner jobs handed out: ${pool.jobs()}.`,
      ],
    };
  } finally {
    await pool.stop();
  }
}
