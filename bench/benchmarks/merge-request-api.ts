/**
 * The merge request REST endpoints GitLab's clients poll, GET …/merge_requests/:iid and
 * GET …/merge_requests, under 50 concurrent clients on PostgreSQL, beside a bare Fastify route
 * answering the same JSON from memory in the same run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBareFastify } from '../lib/bare-fastify.js';
import { type Cleanup } from '../lib/cleanup.js';
import { git, gitEnv } from '../lib/git-repo.js';
import { loadProblem, measureLoad, type LoadResult } from '../lib/load.js';
import { benchDatabase, transactionCount } from '../lib/postgres.js';
import { cpuMs, sleep } from '../lib/process.js';
import { formatMs, formatPercent, formatRate, formatRatio } from '../lib/stats.js';
import { type Row } from '../lib/table.js';
import { api, createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { CONNECTIONS, cpuText, LOAD_SECONDS, ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** Open merge requests in the project: the list's first page of 20 (GitLab's default per_page) shows them all. */
const MERGE_REQUESTS = 20;
const SHARE_TARGET = 0.25;
const P99_TARGET_MS = 30;
const ROUND_TRIPS_TARGET = 3;

interface Measured extends LoadResult {
  cpuPerRequest?: number;
  dbCpuPerRequest?: number;
  /** PostgreSQL transactions (round trips outside a transaction) per request */
  roundTrips?: number;
}

async function measured(url: string, headers: Record<string, string>, pids: { server: number; postmaster?: number }, databaseUrl?: string): Promise<Measured> {
  const [cpuBefore, dbBefore, xactBefore] = [cpuMs(pids.server), pids.postmaster ? cpuMs(pids.postmaster, true) : undefined, databaseUrl ? await transactionCount(databaseUrl) : undefined];
  const result = await measureLoad({ url, headers, connections: CONNECTIONS, durationSec: LOAD_SECONDS });
  const [cpuAfter, dbAfter] = [cpuMs(pids.server), pids.postmaster ? cpuMs(pids.postmaster, true) : undefined];
  if (databaseUrl) await sleep(1500); // PostgreSQL flushes its statistics when a backend goes idle
  const requests = result.total + result.warmupTotal;
  const per = (before?: number, after?: number) => (before === undefined || after === undefined || requests === 0 ? undefined : (after - before) / requests);
  // -1: transactionCount's own query
  const xactAfter = databaseUrl ? (await transactionCount(databaseUrl)) - 1 : undefined;
  return { ...result, cpuPerRequest: per(cpuBefore, cpuAfter), dbCpuPerRequest: per(dbBefore, dbAfter), roundTrips: per(xactBefore, xactAfter) };
}

const describe = (result: Measured) =>
  `${formatRate(result.rps)}, p50 ${formatMs(result.p50)}, p99 ${formatMs(result.p99)}, ${result.total.toLocaleString('en-US')} requests, CPU ${cpuText(result.cpuPerRequest)} per request` +
  (result.dbCpuPerRequest === undefined ? '' : ` + ${cpuText(result.dbCpuPerRequest)} in PostgreSQL`) +
  (result.roundTrips === undefined ? '' : `, ${result.roundTrips.toFixed(2)} round trips per request`);

export async function benchMergeRequestApi(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-mrapi-');
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (merge request API)', dataDir: join(dir, 'data'), databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-mr-api');
  const remote = `${server.url}/${project.path_with_namespace}.git`;
  const plain = gitEnv(home);
  const auth = gitEnv(home, { token });
  const commit = async (file: string, message: string) => {
    writeFileSync(join(work, file), `${message}\n`);
    await git(['add', '-A'], { env: plain, cwd: work });
    await git(['commit', '--quiet', '-m', message], { env: plain, cwd: work });
  };
  await git(['init', '--quiet', '--initial-branch=main'], { env: plain, cwd: work });
  await commit('README.md', 'Initial commit');
  await git(['push', '--quiet', remote, 'main'], { env: auth, cwd: work });
  for (let i = 1; i <= MERGE_REQUESTS; i++) {
    await git(['checkout', '--quiet', '-b', `topic-${i}`, 'main'], { env: plain, cwd: work });
    await commit(`topic-${i}.txt`, `Topic ${i}`);
    await git(['push', '--quiet', remote, `topic-${i}`], { env: auth, cwd: work });
    await api(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: `topic-${i}`, target_branch: 'main', title: `Bench: topic ${i}`, assignee_ids: [1], reviewer_ids: [1] });
  }
  const single = `/api/v4/projects/${project.id}/merge_requests/1`;
  const list = `/api/v4/projects/${project.id}/merge_requests?per_page=${MERGE_REQUESTS}`;
  for (let i = 0; (await api<{ detailed_merge_status: string }>(server, token, 'GET', single.slice('/api/v4'.length))).detailed_merge_status !== 'mergeable'; i++) {
    if (i > 300) throw new Error('the merge request never became mergeable');
    await sleep(50);
  }
  await sleep(1000); // the other requests' mergeability checks settle
  const bodies = { [single]: await api(server, token, 'GET', single.slice('/api/v4'.length)), [list]: await api(server, token, 'GET', list.slice('/api/v4'.length)) };

  const headers = { 'PRIVATE-TOKEN': token };
  const pids = { server: server.child.pid, postmaster: database.postmasterPid };
  const tributarySingle = await measured(`${server.url}${single}`, headers, pids, database.url);
  const tributaryList = await measured(`${server.url}${list}`, headers, pids, database.url);
  await server.child.stop();

  const listBody = bodies[list] as unknown as unknown[];
  if (listBody.length !== MERGE_REQUESTS) throw new Error(`the list answered ${listBody.length} merge requests, not ${MERGE_REQUESTS}`);
  const bare = await startBareFastify(cleanup, { dir, routes: { '/api/v4/projects/:id/merge_requests/:iid': bodies[single], '/api/v4/projects/:id/merge_requests': bodies[list] } });
  const bareSingle = await measured(`${bare.url}${single}`, {}, { server: bare.child.pid });
  const bareList = await measured(`${bare.url}${list}`, {}, { server: bare.child.pid });
  await bare.child.stop();

  const rows: Row[] = [];
  const notes: string[] = [];
  for (const [name, tributary, baseline] of [
    ['GET …/merge_requests/:iid', tributarySingle, bareSingle],
    [`GET …/merge_requests (page of ${MERGE_REQUESTS})`, tributaryList, bareList],
  ] as const) {
    const clean = !loadProblem(tributary) && !loadProblem(baseline);
    const share = tributary.rps / baseline.rps;
    const label = `${name}, ${CONNECTIONS} conn., ${LOAD_SECONDS} s, PostgreSQL`;
    rows.push(
      {
        benchmark: `${label}: throughput`,
        tributary: formatRate(tributary.rps),
        baseline: `${formatRate(baseline.rps)} bare Fastify`,
        ratio: `${formatRatio(share)} (${formatPercent(share)})`,
        target: `≥ ${SHARE_TARGET * 100} % of bare`,
        verdict: verdict(clean && share >= SHARE_TARGET),
      },
      {
        benchmark: `${label}: p99 latency`,
        tributary: formatMs(tributary.p99),
        baseline: `${formatMs(baseline.p99)} bare Fastify`,
        ratio: formatRatio(tributary.p99 / Math.max(baseline.p99, 0.01)),
        target: `< ${P99_TARGET_MS} ms`,
        verdict: verdict(clean && tributary.p99 < P99_TARGET_MS),
      },
      {
        benchmark: `${name}: CPU and round trips per request`,
        tributary: `${cpuText(tributary.cpuPerRequest)} server + ${cpuText(tributary.dbCpuPerRequest)} PostgreSQL, ${tributary.roundTrips?.toFixed(1) ?? '?'} round trips`,
        baseline: `${cpuText(baseline.cpuPerRequest)} bare Fastify`,
        ratio: tributary.cpuPerRequest !== undefined && baseline.cpuPerRequest ? formatRatio(tributary.cpuPerRequest / baseline.cpuPerRequest) : '?',
        target: `≤ ${ROUND_TRIPS_TARGET} round trips`,
        verdict: verdict(tributary.roundTrips !== undefined && tributary.roundTrips <= ROUND_TRIPS_TARGET),
      },
    );
    notes.push(`${name}: Tributary ${describe(tributary)}; bare Fastify (same JSON from memory) ${describe(baseline)}.`);
    for (const [who, result] of [['Tributary', tributary], ['bare Fastify', baseline]] as const) {
      const problem = loadProblem(result);
      if (problem) notes.push(`**${name}, ${who}: ${problem}** (its figures are not trustworthy).`);
    }
  }
  notes.unshift(
    `Merge request API: autocannon in the bench process, ${CONNECTIONS} connections, 2 s warm-up then ${LOAD_SECONDS} s, with a PRIVATE-TOKEN (root); ` +
      `Tributary on ${database.description}, then the bare Fastify server alone. Round trips are PostgreSQL transactions per request (pg_stat_database).`,
  );
  return { rows, notes };
}
