/**
 * The live-widget targets, on PostgreSQL: the GraphQL widget query (the web app's
 * MERGE_REQUEST_WIDGET_QUERY, word for word) under 50 concurrent clients, beside the REST
 * GET of the same merge request under the same load; and the time from `git push`
 * returning to the graphql-ws subscription message, beside a bare LISTEN/NOTIFY round trip
 * on the same database (the floor of any cross-process notification through PostgreSQL).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { MERGE_REQUEST_WIDGET_QUERY, MERGE_STATUS_UPDATED_SUBSCRIPTION, mergeRequestGlobalId } from '../../packages/contracts/src/merge-widget.js';
import { type Cleanup } from '../lib/cleanup.js';
import { git, gitEnv } from '../lib/git-repo.js';
import { loadProblem, measureLoad, type LoadResult } from '../lib/load.js';
import { benchDatabase, transactionCount } from '../lib/postgres.js';
import { assertLocal, cpuMs, sleep } from '../lib/process.js';
import { formatMs, formatRate, formatRatio, formatSamples, median } from '../lib/stats.js';
import { type Row } from '../lib/table.js';
import { api, createProject, createRootToken, startTributary } from '../lib/tributary.js';
import { CONNECTIONS, cpuText, LOAD_SECONDS, ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** Pushes timed for the push-to-message latency (after one untimed warm-up). */
const PUSH_RUNS = 5;
const NOTIFY_RUNS = 20;
/** The targets. */
const QUERY_P99_TARGET_MS = 20;
const PUSH_TO_MESSAGE_TARGET_MS = 300;

interface Measured extends LoadResult {
  cpuPerRequest?: number;
  dbCpuPerRequest?: number;
  /** PostgreSQL transactions (round trips outside a transaction) per request */
  roundTrips?: number;
}

/** autocannon POSTing one body, checking every answer is exactly `expectBody` (a GraphQL error would be a 200). */
async function postLoad(options: { url: string; headers: Record<string, string>; body: string; expectBody: string; durationSec: number }) {
  assertLocal(options.url);
  return autocannon({
    url: options.url,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    expectBody: options.expectBody,
    connections: CONNECTIONS,
    duration: options.durationSec,
    timeout: 10,
  });
}

async function measured(run: () => Promise<LoadResult>, pids: { server: number; postmaster?: number }, databaseUrl: string): Promise<Measured> {
  const [cpuBefore, dbBefore, xactBefore] = [cpuMs(pids.server), pids.postmaster ? cpuMs(pids.postmaster, true) : undefined, await transactionCount(databaseUrl)];
  const result = await run();
  const [cpuAfter, dbAfter] = [cpuMs(pids.server), pids.postmaster ? cpuMs(pids.postmaster, true) : undefined];
  await sleep(1500); // PostgreSQL flushes its statistics when a backend goes idle
  const requests = result.total + result.warmupTotal;
  const per = (before?: number, after?: number) => (before === undefined || after === undefined || requests === 0 ? undefined : (after - before) / requests);
  // -1: transactionCount's own query
  return { ...result, cpuPerRequest: per(cpuBefore, cpuAfter), dbCpuPerRequest: per(dbBefore, dbAfter), roundTrips: per(xactBefore, (await transactionCount(databaseUrl)) - 1) };
}

/** The GraphQL widget query under load: 2 s warm-up, then LOAD_SECONDS measured. */
async function loadGraphql(url: string, token: string, body: string, expectBody: string): Promise<LoadResult> {
  const options = { url: `${url}/api/graphql`, headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body, expectBody };
  const warmup = await postLoad({ ...options, durationSec: 2 });
  const result = await postLoad({ ...options, durationSec: LOAD_SECONDS });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    warmupTotal: warmup.requests.total,
    // autocannon counts body mismatches among errors
    errors: result.errors + result.mismatches,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** LISTEN on one connection, NOTIFY from another: the round trip every cross-process event pays at least. */
async function notifyRoundTrips(databaseUrl: string): Promise<number[]> {
  const listener = new pg.Client({ connectionString: databaseUrl });
  const sender = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([listener.connect(), sender.connect()]);
  try {
    await listener.query('LISTEN bench_probe');
    const samples: number[] = [];
    for (let i = 0; i < NOTIFY_RUNS; i++) {
      const heard = new Promise<number>((resolve) => listener.once('notification', () => resolve(performance.now())));
      const start = performance.now();
      await sender.query(`SELECT pg_notify('bench_probe', $1)`, [String(i)]);
      samples.push((await heard) - start);
    }
    return samples;
  } finally {
    await Promise.all([listener.end(), sender.end()]).catch(() => undefined);
  }
}

export async function benchGraphqlWidget(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-gql-');
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (GraphQL widget)', dataDir: join(dir, 'data'), databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-widget');
  const remote = `${server.url}/${project.path_with_namespace}.git`;
  const plain = gitEnv(home);
  const auth = gitEnv(home, { token });
  let counter = 0;
  const commit = async (message: string) => {
    writeFileSync(join(work, `file-${++counter}.txt`), `${message}\n`);
    await git(['add', '-A'], { env: plain, cwd: work });
    await git(['commit', '--quiet', '-m', message], { env: plain, cwd: work });
  };
  await git(['init', '--quiet', '--initial-branch=main'], { env: plain, cwd: work });
  await commit('Initial commit');
  await git(['push', '--quiet', remote, 'main'], { env: auth, cwd: work });
  await git(['checkout', '--quiet', '-b', 'topic'], { env: plain, cwd: work });
  for (let i = 0; i < 3; i++) await commit(`Topic commit ${i + 1}\n\nWith a body.`);
  await git(['push', '--quiet', remote, 'topic'], { env: auth, cwd: work });
  const mr = await api<{ id: number; iid: number }>(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Bench: the widget' });
  const mrPath = `/projects/${project.id}/merge_requests/${mr.iid}`;
  for (let i = 0; (await api<{ detailed_merge_status: string }>(server, token, 'GET', mrPath)).detailed_merge_status !== 'mergeable'; i++) {
    if (i > 300) throw new Error('the merge request never became mergeable');
    await sleep(50);
  }

  // 1. The widget query under load, beside the REST GET of the same merge request.
  const body = JSON.stringify({ query: MERGE_REQUEST_WIDGET_QUERY, variables: { projectPath: project.path_with_namespace, iid: String(mr.iid) } });
  const first = await fetch(`${server.url}/api/graphql`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body });
  const expectBody = await first.text();
  const parsed = JSON.parse(expectBody) as { data?: { project?: { mergeRequest?: { detailedMergeStatus?: string } } }; errors?: unknown };
  if (first.status !== 200 || parsed.errors || parsed.data?.project?.mergeRequest?.detailedMergeStatus !== 'MERGEABLE') {
    throw new Error(`the widget query did not answer the merge request: ${first.status} ${expectBody.slice(0, 500)}`);
  }
  const pids = { server: server.child.pid, postmaster: database.postmasterPid };
  const graphqlLoad = await measured(() => loadGraphql(server.url, token, body, expectBody), pids, database.url);
  const restLoad = await measured(
    () => measureLoad({ url: `${server.url}/api/v4${mrPath}`, headers: { 'PRIVATE-TOKEN': token }, connections: CONNECTIONS, durationSec: LOAD_SECONDS }),
    pids,
    database.url,
  );

  // 2. git push returning → the subscription messages, beside LISTEN/NOTIFY. A push announces the
  // request `checking` in its own transaction, then the refresh job announces the new version and
  // trial merge: the first message and the settled one (the pushed commit counted, MERGEABLE).
  interface Update {
    at: number;
    commitCount?: number;
    detailedMergeStatus?: string;
  }
  const messages: Update[] = [];
  const client = createClient({
    url: `${server.url.replace(/^http/, 'ws')}/api/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
  cleanup.defer('close the graphql-ws client', () => client.dispose());
  let failure: unknown;
  client.subscribe<{ mergeRequestMergeStatusUpdated: { commitCount: number; detailedMergeStatus: string } }>(
    { query: MERGE_STATUS_UPDATED_SUBSCRIPTION, variables: { issuableId: mergeRequestGlobalId(mr.id) } },
    {
      next: (value) => void messages.push({ at: performance.now(), ...value.data?.mergeRequestMergeStatusUpdated }),
      error: (error) => void (failure = error),
      complete: () => undefined,
    },
  );
  const waitFor = async (accept: (update: Update) => boolean): Promise<Update> => {
    const deadline = performance.now() + 15_000;
    for (;;) {
      const found = messages.find(accept);
      if (found) return found;
      if (failure) throw new Error(`the subscription failed: ${JSON.stringify(failure)}`);
      if (performance.now() > deadline) throw new Error('no such subscription message within 15 s of a push');
      await sleep(1);
    }
  };
  const firstLatencies: number[] = [];
  const latencies: number[] = [];
  const pushes: number[] = [];
  let commits = 3;
  for (let i = 0; i <= PUSH_RUNS; i++) {
    await commit(`Push ${i}`);
    commits++;
    const start = performance.now();
    await git(['push', '--quiet', remote, 'topic'], { env: auth, cwd: work });
    const returned = performance.now();
    const expected = commits;
    const settled = await waitFor((update) => update.commitCount === expected && update.detailedMergeStatus === 'MERGEABLE');
    // The first push is a warm-up, and proves the subscription is registered.
    if (i === 0) continue;
    firstLatencies.push((await waitFor((update) => update.at >= start)).at - returned);
    latencies.push(settled.at - returned);
    pushes.push(returned - start);
    await sleep(300);
  }
  const notify = await notifyRoundTrips(database.url);
  await client.dispose();
  await server.child.stop();

  const label = `GraphQL widget query (MERGE_REQUEST_WIDGET_QUERY), ${CONNECTIONS} conn., ${LOAD_SECONDS} s, PostgreSQL`;
  const problem = loadProblem(graphqlLoad);
  const restProblem = loadProblem(restLoad);
  const round = (value?: number) => (value === undefined ? '?' : value.toFixed(1));
  const rows: Row[] = [
    {
      benchmark: `${label}: p99 latency`,
      tributary: formatMs(graphqlLoad.p99),
      baseline: `${formatMs(restLoad.p99)} REST GET …/merge_requests/:iid`,
      ratio: formatRatio(graphqlLoad.p99 / Math.max(restLoad.p99, 0.01)),
      target: `< ${QUERY_P99_TARGET_MS} ms`,
      verdict: verdict(!problem && graphqlLoad.p99 < QUERY_P99_TARGET_MS),
    },
    {
      benchmark: `${label}: throughput`,
      tributary: formatRate(graphqlLoad.rps),
      baseline: `${formatRate(restLoad.rps)} REST GET …/merge_requests/:iid`,
      ratio: formatRatio(graphqlLoad.rps / restLoad.rps),
      target: '(information)',
      verdict: 'info',
    },
    {
      benchmark: `${label}: CPU and round trips per request`,
      tributary: `${cpuText(graphqlLoad.cpuPerRequest)} server + ${cpuText(graphqlLoad.dbCpuPerRequest)} PostgreSQL, ${round(graphqlLoad.roundTrips)} round trips`,
      baseline: `${cpuText(restLoad.cpuPerRequest)} + ${cpuText(restLoad.dbCpuPerRequest)}, ${round(restLoad.roundTrips)} round trips (REST)`,
      ratio: graphqlLoad.cpuPerRequest && restLoad.cpuPerRequest ? formatRatio(graphqlLoad.cpuPerRequest / restLoad.cpuPerRequest) : '?',
      target: '(information)',
      verdict: 'info',
    },
    {
      benchmark: `git push returning → mergeRequestMergeStatusUpdated with the new state, over graphql-ws (median of ${PUSH_RUNS}; worst)`,
      tributary: `${formatMs(median(latencies))}; ${formatMs(Math.max(...latencies))}`,
      baseline: `${formatMs(median(notify))} LISTEN/NOTIFY round trip`,
      ratio: formatRatio(median(latencies) / Math.max(median(notify), 0.01)),
      target: `< ${formatMs(PUSH_TO_MESSAGE_TARGET_MS)}`,
      verdict: verdict(Math.max(...latencies) < PUSH_TO_MESSAGE_TARGET_MS),
    },
  ];
  const describe = (result: Measured) =>
    `${formatRate(result.rps)}, p50 ${formatMs(result.p50)}, p99 ${formatMs(result.p99)}, ${result.total.toLocaleString('en-US')} requests`;
  const notes = [
    `GraphQL widget query: autocannon in the bench process, ${CONNECTIONS} connections, POST /api/graphql with the web app's query and a PRIVATE-TOKEN, 2 s warm-up then ${LOAD_SECONDS} s; ` +
      `every answer compared byte for byte with the first (a GraphQL error is a 200, so it would count as a mismatch). ${describe(graphqlLoad)}. ` +
      `REST GET /api/v4/projects/:id/merge_requests/:iid of the same request, same load: ${describe(restLoad)}. Database: ${database.description}.` +
      (problem ? ` **GraphQL load problem: ${problem}.**` : '') +
      (restProblem ? ` **REST load problem: ${restProblem}.**` : ''),
    `Push to message: a graphql-ws client subscribed with a token in connection_init; each push is one new commit on the source branch, \`git push\` over smart HTTP (${formatSamples(pushes)}); ` +
      `from the push returning to the first message (the request marked checking in the push's own transaction; negative: before git returned): ${formatSamples(firstLatencies)}; ` +
      `to the message with the new state (the refresh job recorded the version and the trial merge): ${formatSamples(latencies)}. ` +
      `LISTEN/NOTIFY round trip on the same database, node-postgres, ${NOTIFY_RUNS} samples: median ${formatMs(median(notify))}.`,
  ];
  return { rows, notes };
}
