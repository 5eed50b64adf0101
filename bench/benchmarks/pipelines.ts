/**
 * The pipeline targets, on PostgreSQL, each beside a baseline measured in the same run:
 *
 * 1. push → first job running on an idle `tributary runner` (the real CLI, long polling), beside
 *    the same `git push` to a bare repository on disk;
 * 2. a 500-job pipeline (stages, DAG, matrix) created from its YAML through `POST /pipeline`,
 *    beside `POST /ci/lint` of the same YAML (compiling it without storing anything); and the
 *    API payload the graph page reads (the pipeline, then every page of its jobs and bridges, as
 *    the web app reads them), beside reading the same rows with one SQL query;
 * 3. 100 idle runners long-polling `POST /jobs/request`: the server's CPU as a share of one core,
 *    beside a bare Node HTTP server holding the same 100 requests;
 * 4. a job printing 20 MB of log through the real runner, followed as the job page follows it
 *    (`ciJobTraceUpdated`, then a `Range` read of what was appended): each line's lag from the
 *    moment the job printed it, and the server's CPU per MB beside writing the same bytes to a
 *    file in the same chunks.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { launchBrowser, signIn } from '../../e2e/support/browser.js';
import { type Cleanup } from '../lib/cleanup.js';
import { openSettledPage, waitForExpression } from '../lib/page-metrics.js';
import { git, gitEnv } from '../lib/git-repo.js';
import { bigPipelineJobCount, bigPipelineYaml, lineLags, logPrinterScript } from '../lib/pipeline-fixtures.js';
import { benchDatabase } from '../lib/postgres.js';
import { cpuMs, sleep } from '../lib/process.js';
import { startRunner, until, type Job } from '../lib/runner-helpers.js';
import { formatMs, formatRatio, formatSamples, median, percentile } from '../lib/stats.js';
import { type Row } from '../lib/table.js';
import { api, createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, RUNS, verdict, type BenchResult } from './common.js';
import { bareLongPollServer, idleShare, LONG_POLL_SECONDS, pollers } from './pipeline-idle-runners.js';

const JOBS = Number(process.env.BENCH_PIPELINE_JOBS ?? 500);
const IDLE_RUNNERS = Number(process.env.BENCH_IDLE_RUNNERS ?? 100);
const LOG_MB = Number(process.env.BENCH_LOG_MB ?? 20);
/** The job prints its log this fast (a busy build; the runner sends it every 250 ms). */
const LOG_BYTES_PER_SECOND = 2 * 1024 * 1024;
/** A share of one core with two decimals: idle figures are fractions of a per cent. */
const formatPercent = (fraction: number) => `${(fraction * 100).toFixed(2)} %`;
const TARGETS = { pushToRunningMs: 1000, createMs: 1000, graphMs: 1500, idleCoreShare: 0.05, logLagMs: 1000 };

export async function benchPipelines(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-pipelines-');
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (pipelines)', dataDir: join(dir, 'data'), databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-pipelines');
  const remote = `${server.url}/${project.path_with_namespace}.git`;
  const plain = gitEnv(home);
  const auth = gitEnv(home, { token });
  const rows: Row[] = [];
  const notes: string[] = [];
  let counter = 0;
  const commit = async (files: Record<string, string>, message: string) => {
    for (const [path, content] of Object.entries(files)) writeFileSync(join(work, path), content);
    await git(['add', '-A'], { env: plain, cwd: work });
    await git(['commit', '--quiet', '-m', message], { env: plain, cwd: work });
    return (await git(['rev-parse', 'HEAD'], { env: plain, cwd: work })).stdout.trim();
  };
  const jobsOfSha = async (sha: string) => {
    const jobs = await api<Job[]>(server, token, 'GET', `/projects/${project.id}/jobs?per_page=100`);
    return jobs.filter((job) => job.pipeline.sha === sha);
  };
  await git(['init', '--quiet', '--initial-branch=main'], { env: plain, cwd: work });
  await commit({ 'README.md': '# bench\n' }, 'Initial commit');
  await git(['push', '--quiet', remote, 'main'], { env: auth, cwd: work });

  // 1. push → first job running on an idle `tributary runner`
  const runnerToken = (await api<{ token: string; id: number }>(server, token, 'POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true, description: 'bench runner' })).token;
  const runner = startRunner(cleanup, server, runnerToken, dir, 'bench-runner');
  const bare = join(dir, 'baseline.git');
  await git(['init', '--quiet', '--bare', bare], { env: plain });
  const quickCi = 'quick:\n  script: ["true"]\n';
  const pushToRunning: number[] = [];
  const barePush: number[] = [];
  const breakdown: string[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const sha = await commit({ '.gitlab-ci.yml': quickCi, 'counter.txt': `${++counter}\n` }, `Run ${counter}`);
    // The runner is idle (its previous job done) and long-polling when the push starts.
    await sleep(500);
    const started = Date.now();
    await git(['push', '--quiet', remote, 'main'], { env: auth, cwd: work });
    const pushed = Date.now() - started;
    const job = await until(async () => (await jobsOfSha(sha)).find((each) => each.started_at !== null), 'the job to start');
    const created = Date.parse((job as Job & { created_at: string }).created_at) - started;
    breakdown.push(`push returned ${pushed} ms, job created ${created} ms, running ${Date.parse(job.started_at!) - started} ms`);
    await until(async () => (await jobsOfSha(sha)).every((each) => each.status === 'success' || each.status === 'failed'), 'the job to finish');
    const bareStart = performance.now();
    await git(['push', '--quiet', bare, 'main'], { env: plain, cwd: work });
    if (run === 0) continue; // warm-up
    pushToRunning.push(Date.parse(job.started_at!) - started);
    barePush.push(performance.now() - bareStart);
  }
  await runner.stop();
  notes.push(`Push → running, each run after the push started: ${breakdown.slice(1).join('; ')}.`);
  const pushMs = median(pushToRunning);
  rows.push({
    benchmark: 'Push → first job running (idle `tributary runner`)',
    tributary: `${formatMs(pushMs)} (${formatSamples(pushToRunning)})`,
    baseline: `${formatMs(median(barePush))} git push to a bare repo on disk`,
    ratio: formatRatio(pushMs / median(barePush)),
    target: `< ${formatMs(TARGETS.pushToRunningMs)}`,
    verdict: verdict(pushMs < TARGETS.pushToRunningMs),
  });

  // 2. a 500-job pipeline from YAML, and the graph's payload
  const yaml = bigPipelineYaml(JOBS);
  await git(['checkout', '--quiet', '-b', 'big'], { env: plain, cwd: work });
  await commit({ '.gitlab-ci.yml': yaml }, '[ci skip] A big pipeline');
  await git(['push', '--quiet', remote, 'big'], { env: auth, cwd: work });
  const create: number[] = [];
  const lint: number[] = [];
  const graph: number[] = [];
  const sql: number[] = [];
  let bigPipelineId = 0;
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    for (let run = 0; run <= RUNS; run++) {
      const lintStart = performance.now();
      const linted = await api<{ valid: boolean; errors: string[] }>(server, token, 'POST', `/projects/${project.id}/ci/lint`, { content: yaml });
      const lintMs = performance.now() - lintStart;
      if (!linted.valid) throw new Error(`the big YAML is invalid: ${linted.errors.join('; ')}`);
      const createStart = performance.now();
      const pipeline = await api<{ id: number }>(server, token, 'POST', `/projects/${project.id}/pipeline`, { ref: 'big' });
      const createMs = performance.now() - createStart;
      // What the pipeline page reads (web/src/features/pipelines/api.ts): the pipeline, then every page of jobs and bridges.
      const graphStart = performance.now();
      const pages = async (kind: 'jobs' | 'bridges') => {
        let count = 0;
        for (let page = 1; ; page++) {
          const items = await api<Job[]>(server, token, 'GET', `/projects/${project.id}/pipelines/${pipeline.id}/${kind}?per_page=100&page=${page}`);
          count += items.length;
          if (items.length < 100) return count;
        }
      };
      await api(server, token, 'GET', `/projects/${project.id}/pipelines/${pipeline.id}`);
      const [jobCount] = await Promise.all([pages('jobs'), pages('bridges')]);
      const graphMs = performance.now() - graphStart;
      if (jobCount !== bigPipelineJobCount(JOBS)) throw new Error(`the pipeline has ${jobCount} jobs, not ${bigPipelineJobCount(JOBS)}`);
      const sqlStart = performance.now();
      await db.query('SELECT * FROM ci_builds WHERE pipeline_id = $1 ORDER BY id', [pipeline.id]);
      const sqlMs = performance.now() - sqlStart;
      await api(server, token, 'POST', `/projects/${project.id}/pipelines/${pipeline.id}/cancel`);
      bigPipelineId = pipeline.id;
      if (run === 0) continue;
      create.push(createMs);
      lint.push(lintMs);
      graph.push(graphMs);
      sql.push(sqlMs);
    }
  } finally {
    await db.end().catch(() => undefined);
  }
  const createMs = median(create);
  rows.push({
    benchmark: `${bigPipelineJobCount(JOBS)}-job pipeline created from YAML (POST /pipeline)`,
    tributary: `${formatMs(createMs)} (${formatSamples(create)})`,
    baseline: `${formatMs(median(lint))} POST /ci/lint (compile only)`,
    ratio: formatRatio(createMs / median(lint)),
    target: `< ${formatMs(TARGETS.createMs)}`,
    verdict: verdict(createMs < TARGETS.createMs),
  });
  const graphMs = median(graph);
  rows.push({
    benchmark: `Graph page payload of ${bigPipelineJobCount(JOBS)} jobs (pipeline + every jobs/bridges page)`,
    tributary: `${formatMs(graphMs)} (${formatSamples(graph)})`,
    baseline: `${formatMs(median(sql))} one SELECT of the rows`,
    ratio: formatRatio(graphMs / median(sql)),
    target: '(information)',
    verdict: 'info',
  });
  // The graph page in Chromium: from navigation to every job's card in the page.
  const browser = await launchBrowser();
  cleanup.defer('close Chromium', () => browser.close());
  const context = await browser.newContext({ baseURL: server.url });
  const signInPage = await context.newPage();
  await signIn(signInPage, { username: 'root', password: ROOT_PASSWORD });
  await signInPage.close();
  const shown: number[] = [];
  const allCards = `document.querySelectorAll('[role="region"][aria-label="Pipeline graph"] [data-job]').length >= ${bigPipelineJobCount(JOBS)}`;
  for (let run = 0; run <= RUNS; run++) {
    const page = await openSettledPage(context);
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${bigPipelineId}`);
    await waitForExpression(page, allCards, 60_000);
    const ms = (await page.evaluate('performance.now()')) as number;
    await page.close();
    if (run > 0) shown.push(ms);
  }
  await browser.close();
  const shownMs = median(shown);
  rows.push({
    benchmark: `Graph page in Chromium: all ${bigPipelineJobCount(JOBS)} jobs shown, from navigation`,
    tributary: `${formatMs(shownMs)} (${formatSamples(shown)})`,
    baseline: `${formatMs(graphMs)} the page's API payload from Node`,
    ratio: formatRatio(shownMs / graphMs),
    target: `< ${formatMs(TARGETS.graphMs)}`,
    verdict: verdict(shownMs < TARGETS.graphMs),
  });

  // 3. idle runners long-polling
  const idleProject = await createProject(server, token, 'bench-idle-runners');
  const tokens: string[] = [];
  for (let i = 0; i < IDLE_RUNNERS; i++) {
    tokens.push((await api<{ token: string }>(server, token, 'POST', '/user/runners', { runner_type: 'project_type', project_id: idleProject.id, run_untagged: true, description: `idle ${i}` })).token);
  }
  const tributaryPolls = pollers(server.url, tokens);
  await sleep(3000);
  const tributaryIdle = await idleShare(server.child.pid, database.postmasterPid);
  await tributaryPolls.stop();
  const bareServer = await bareLongPollServer(cleanup, dir);
  const barePolls = pollers(bareServer.url, tokens);
  await sleep(3000);
  const bareIdle = await idleShare(bareServer.child.pid, undefined);
  await barePolls.stop();
  await bareServer.child.stop();
  rows.push({
    benchmark: `${IDLE_RUNNERS} idle runners long-polling: server CPU`,
    tributary: `${formatPercent(tributaryIdle.server)} of a core${tributaryIdle.db === undefined ? '' : ` (+ PostgreSQL ${formatPercent(tributaryIdle.db)})`}`,
    baseline: `${formatPercent(bareIdle.server)} bare Node HTTP server holding them`,
    ratio: bareIdle.server > 0 ? formatRatio(tributaryIdle.server / bareIdle.server) : '—',
    target: `< ${formatPercent(TARGETS.idleCoreShare)}`,
    verdict: verdict(tributaryIdle.server < TARGETS.idleCoreShare),
  });
  notes.push(`Idle runners: ${tributaryPolls.answers()} job requests answered during the Tributary run (each is held up to the ${LONG_POLL_SECONDS} s long poll).`);

  // 4. a job printing LOG_MB of log, followed as the job page follows it
  const logBytes = LOG_MB * 1024 * 1024;
  await git(['checkout', '--quiet', 'main'], { env: plain, cwd: work });
  const logRunner = startRunner(cleanup, server, runnerToken, dir, 'bench-log-runner');
  const logCi = `print:\n  script:\n    - sleep 2\n    - ${JSON.stringify(logPrinterScript(logBytes, LOG_BYTES_PER_SECOND))}\n`;
  const logSha = await commit({ '.gitlab-ci.yml': logCi, 'counter.txt': `${counter + 1}\n` }, 'A loud job');
  await git(['push', '--quiet', remote, 'main'], { env: auth, cwd: work });
  const logJob = await until(async () => (await jobsOfSha(logSha)).find((each) => each.name === 'print'), 'the log job');
  const lags: number[] = [];
  let offset = 0;
  let tail = '';
  let reading = false;
  let again = false;
  const decoder = new TextDecoder();
  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const response = await fetch(`${server.url}/api/v4/projects/${project.id}/jobs/${logJob.id}/trace`, { headers: { 'PRIVATE-TOKEN': token, Range: `bytes=${offset}-` } });
        if (response.status !== 206) {
          await response.arrayBuffer();
          continue;
        }
        const bytes = new Uint8Array(await response.arrayBuffer());
        const now = Date.now();
        offset = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? offset + bytes.length);
        const text = tail + decoder.decode(bytes, { stream: true });
        const cut = text.lastIndexOf('\n') + 1;
        lags.push(...lineLags(text.slice(0, cut), now));
        tail = text.slice(cut);
      } while (again);
    } finally {
      reading = false;
    }
  };
  class TokenSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: { origin: server.url } });
    }
  }
  const client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/api/graphql`, webSocketImpl: TokenSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  const unsubscribe = client.subscribe(
    { query: 'subscription ($jobId: CiBuildID!) { ciJobTraceUpdated(jobId: $jobId) { id } }', variables: { jobId: `gid://gitlab/Ci::Build/${logJob.id}` } },
    { next: () => void read(), error: () => undefined, complete: () => undefined },
  );
  const cpuStart = cpuMs(server.child.pid);
  const dbStart = database.postmasterPid ? cpuMs(database.postmasterPid, true) : undefined;
  await until(async () => ['success', 'failed'].includes((await api<Job>(server, token, 'GET', `/projects/${project.id}/jobs/${logJob.id}`)).status), 'the log job to finish', 300_000);
  const cpuEnd = cpuMs(server.child.pid);
  const dbEnd = database.postmasterPid ? cpuMs(database.postmasterPid, true) : undefined;
  unsubscribe();
  await client.dispose();
  await logRunner.stop();
  const expectedLines = Math.floor(logBytes / 1000);
  // The raw baseline: the same bytes written to a file in the runner's 256 KiB chunks.
  const rawFile = join(dir, 'raw.log');
  const chunk = Buffer.alloc(256 * 1024, 'x');
  const rawCpu = process.cpuUsage();
  const fd = openSync(rawFile, 'a');
  for (let written = 0; written < logBytes; written += chunk.length) writeSync(fd, chunk);
  closeSync(fd);
  const rawUsage = process.cpuUsage(rawCpu);
  const rawMsPerMb = (rawUsage.user + rawUsage.system) / 1000 / LOG_MB;
  const serverMsPerMb = cpuStart === undefined || cpuEnd === undefined ? NaN : (cpuEnd - cpuStart) / LOG_MB;
  const dbMsPerMb = dbStart === undefined || dbEnd === undefined || dbEnd < dbStart ? undefined : (dbEnd - dbStart) / LOG_MB;
  const p99 = lags.length ? percentile(lags, 99) : NaN;
  rows.push({
    benchmark: `${LOG_MB} MB job log streamed to a follower (lag per line, p99)`,
    tributary: `${formatMs(p99)} (p50 ${formatMs(lags.length ? percentile(lags, 50) : NaN)}, max ${formatMs(lags.length ? Math.max(...lags) : NaN)}; ${lags.length}/${expectedLines} lines)`,
    baseline: '—',
    ratio: '—',
    target: `< ${formatMs(TARGETS.logLagMs)}`,
    verdict: verdict(p99 < TARGETS.logLagMs && lags.length >= expectedLines * 0.99),
  });
  rows.push({
    benchmark: `${LOG_MB} MB job log: server CPU per MB`,
    tributary: `${serverMsPerMb.toFixed(1)} ms/MB${dbMsPerMb === undefined ? '' : ` (+ PostgreSQL ${dbMsPerMb.toFixed(1)} ms/MB)`}`,
    baseline: `${rawMsPerMb.toFixed(2)} ms/MB raw file write`,
    ratio: formatRatio(serverMsPerMb / rawMsPerMb),
    target: 'stated',
    verdict: 'info',
  });
  notes.push(`The log job prints ${LOG_MB} MB at ${LOG_BYTES_PER_SECOND / 1024 / 1024} MB/s in 1000-byte lines, each starting with the time it was printed; the follower reads what was appended whenever ciJobTraceUpdated says so. The runner sends new log text every 250 ms.`);
  return { rows, notes };
}
