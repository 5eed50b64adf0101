import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { seedPgliteDir } from '../../server/src/test-support/pglite-template.js';
import { startBareFastify } from '../lib/bare-fastify.js';
import { type Cleanup } from '../lib/cleanup.js';
import { loadProblem, measureLoad, type LoadResult } from '../lib/load.js';
import { benchDatabase, transactionCount } from '../lib/postgres.js';
import { cpuMs, rssMiB, sleep } from '../lib/process.js';
import { formatMs, formatPercent, formatRate, formatRatio } from '../lib/stats.js';
import { measureRawSql } from '../lib/sql-baseline.js';
import { api, createProject, createRootToken, startTributary, type RunningTributary } from '../lib/tributary.js';
import { CONNECTIONS, cpuText, LOAD_SECONDS, ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

interface ApiTarget {
  server: RunningTributary;
  token: string;
  projectId: number;
  body: unknown;
}

async function prepareApiTarget(server: RunningTributary): Promise<ApiTarget> {
  const token = await createRootToken(server);
  const project = await createProject(server, token, 'bench-api');
  const body = await api(server, token, 'GET', `/projects/${project.id}`);
  return { server, token, projectId: project.id, body };
}

interface MeasuredLoad extends LoadResult {
  /** CPU ms the server process spent per request (warm-up included on both sides of the division) */
  cpuPerRequest?: number;
  /** CPU ms PostgreSQL's backends spent per request, when the cluster is ours */
  dbCpuPerRequest?: number;
  rss?: number;
}

/** autocannon against one server, with the server's (and PostgreSQL's) CPU time per request. */
async function loadWithCpu(options: { url: string; headers?: Record<string, string>; pid: number; postmasterPid?: number }): Promise<MeasuredLoad> {
  const cpuBefore = cpuMs(options.pid);
  const dbBefore = options.postmasterPid ? cpuMs(options.postmasterPid, true) : undefined;
  const result = await measureLoad({ url: options.url, headers: options.headers, connections: CONNECTIONS, durationSec: LOAD_SECONDS });
  const cpuAfter = cpuMs(options.pid);
  const dbAfter = options.postmasterPid ? cpuMs(options.postmasterPid, true) : undefined;
  const requests = result.total + result.warmupTotal;
  const perRequest = (before?: number, after?: number) => (before === undefined || after === undefined || requests === 0 ? undefined : (after - before) / requests);
  return { ...result, cpuPerRequest: perRequest(cpuBefore, cpuAfter), dbCpuPerRequest: perRequest(dbBefore, dbAfter), rss: rssMiB(options.pid) };
}

function loadTributary(target: ApiTarget, postmasterPid?: number): Promise<MeasuredLoad> {
  return loadWithCpu({
    url: `${target.server.url}/api/v4/projects/${target.projectId}`,
    headers: { 'PRIVATE-TOKEN': target.token },
    pid: target.server.child.pid,
    postmasterPid,
  });
}


function describeLoad(result: MeasuredLoad): string {
  const db = result.dbCpuPerRequest === undefined ? '' : ` + ${cpuText(result.dbCpuPerRequest)} in PostgreSQL`;
  return (
    `${formatRate(result.rps)}, p50 ${formatMs(result.p50)}, p99 ${formatMs(result.p99)}, ${result.total.toLocaleString('en-US')} requests, ` +
    `CPU ${cpuText(result.cpuPerRequest)} per request in the server${db}`
  );
}

/**
 * GET /api/v4/projects/:id with a PRIVATE-TOKEN, 50 connections for 10 s
 * (after 2 s of warm-up), against Tributary on PostgreSQL, then the same
 * number of PostgreSQL round trips in raw SQL, then a bare Fastify route
 * serving the same JSON from memory, then Tributary on PGlite. Each server
 * runs alone in its own process while it is measured.
 */
export async function benchProjectApi(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-api-');
  const database = await benchDatabase(cleanup);

  const pgServer = await startTributary(cleanup, { name: 'tributary (PostgreSQL)', dataDir: join(dir, 'pg'), databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const pgTarget = await prepareApiTarget(pgServer);
  const transactionsBefore = await transactionCount(database.url);
  const onPostgres = await loadTributary(pgTarget, database.postmasterPid);
  await sleep(1500); // let PostgreSQL flush its statistics
  const transactionsPerRequest = ((await transactionCount(database.url)) - transactionsBefore - 1) / (onPostgres.total + onPostgres.warmupTotal);
  await pgServer.child.stop();

  const roundTrips = Math.max(1, Math.round(transactionsPerRequest));
  const rawSql = await measureRawSql({ url: database.url, roundTrips, concurrency: CONNECTIONS, durationSec: 5 });

  const bareServer = await startBareFastify(cleanup, { dir, body: pgTarget.body });
  const bare = await loadWithCpu({ url: `${bareServer.url}/api/v4/projects/${pgTarget.projectId}`, pid: bareServer.child.pid });
  await bareServer.child.stop();

  const pgliteDir = join(dir, 'pglite');
  mkdirSync(pgliteDir);
  await seedPgliteDir(join(pgliteDir, 'pglite')); // skip PGlite's initdb; measured in the cold-start benchmark
  const pgliteServer = await startTributary(cleanup, { name: 'tributary (PGlite)', dataDir: pgliteDir, rootPassword: ROOT_PASSWORD });
  const onPglite = await loadTributary(await prepareApiTarget(pgliteServer));
  await pgliteServer.child.stop();

  const problems = [
    ['Tributary on PostgreSQL', loadProblem(onPostgres)],
    ['bare Fastify', loadProblem(bare)],
    ['Tributary on PGlite', loadProblem(onPglite)],
  ].filter(([, problem]) => problem);
  const clean = !loadProblem(onPostgres) && !loadProblem(bare);
  const share = onPostgres.rps / bare.rps;
  const label = `GET /api/v4/projects/:id, ${CONNECTIONS} conn., ${LOAD_SECONDS} s`;
  const rss = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(0)} MiB`);
  const cpuRatio = (value: number | undefined) => (value !== undefined && bare.cpuPerRequest ? formatRatio(value / bare.cpuPerRequest) : '?');
  const dbCpu = onPostgres.dbCpuPerRequest === undefined ? '' : ` + ${cpuText(onPostgres.dbCpuPerRequest)} PostgreSQL`;
  return {
    rows: [
      {
        benchmark: `${label}, PostgreSQL: throughput`,
        tributary: formatRate(onPostgres.rps),
        baseline: `${formatRate(bare.rps)} bare Fastify`,
        ratio: `${formatRatio(share)} (${formatPercent(share)})`,
        target: '≥ 30 % of bare',
        verdict: verdict(clean && share >= 0.3),
      },
      {
        benchmark: `${label}, PostgreSQL: p99 latency`,
        tributary: formatMs(onPostgres.p99),
        baseline: `${formatMs(bare.p99)} bare Fastify`,
        ratio: formatRatio(onPostgres.p99 / Math.max(bare.p99, 0.01)),
        target: '< 30 ms',
        verdict: verdict(clean && onPostgres.p99 < 30),
      },
      {
        benchmark: `${label}, PostgreSQL: throughput against raw SQL`,
        tributary: formatRate(onPostgres.rps),
        baseline: `${formatRate(rawSql.rps)} raw SQL, ${roundTrips} round trips/request`,
        ratio: `${formatRatio(onPostgres.rps / rawSql.rps)} (${formatPercent(onPostgres.rps / rawSql.rps)})`,
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: `${label}, PostgreSQL: CPU per request`,
        tributary: `${cpuText(onPostgres.cpuPerRequest)} server${dbCpu}`,
        baseline: `${cpuText(bare.cpuPerRequest)} bare Fastify`,
        ratio: cpuRatio(onPostgres.cpuPerRequest),
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: `${label}, PGlite: throughput`,
        tributary: formatRate(onPglite.rps),
        baseline: `${formatRate(bare.rps)} bare Fastify`,
        ratio: `${formatRatio(onPglite.rps / bare.rps)} (${formatPercent(onPglite.rps / bare.rps)})`,
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: `${label}, PGlite: p99 latency`,
        tributary: formatMs(onPglite.p99),
        baseline: `${formatMs(bare.p99)} bare Fastify`,
        ratio: formatRatio(onPglite.p99 / Math.max(bare.p99, 0.01)),
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: `${label}, PGlite: CPU per request (database in-process)`,
        tributary: cpuText(onPglite.cpuPerRequest),
        baseline: `${cpuText(bare.cpuPerRequest)} bare Fastify`,
        ratio: cpuRatio(onPglite.cpuPerRequest),
        target: '(information)',
        verdict: 'info',
      },
      {
        benchmark: 'Resident memory after the API load (PostgreSQL / PGlite)',
        tributary: `${rss(onPostgres.rss)} / ${rss(onPglite.rss)}`,
        baseline: `${rss(bare.rss)} bare Fastify`,
        ratio: onPostgres.rss && bare.rss ? formatRatio(onPostgres.rss / bare.rss) : '?',
        target: '(information)',
        verdict: 'info',
      },
    ],
    notes: [
      `Project API: autocannon in the bench process, ${CONNECTIONS} connections, ${LOAD_SECONDS} s measured after 2 s of warm-up; ` +
        `each server in its own child process, alone while measured; the server logs at its default level (info) to a file. Database: ${database.description}. ` +
        `Raw SQL: ${CONNECTIONS} concurrent loops of ${roundTrips} sequential \`SELECT $1::int\` through node-postgres with a pool of 10 (the server's), 5 s, in a child process: ` +
        `the ceiling for that many round trips per request. CPU per request is user + system time from /proc, which other work on the machine hardly changes.`,
      `Tributary on PostgreSQL: ${describeLoad(onPostgres)}; ≈ ${transactionsPerRequest.toFixed(1)} PostgreSQL round trips (transactions) per request, from pg_stat_database. ` +
        `Raw SQL: ${formatRate(rawSql.rps)}. Bare Fastify (same JSON body from memory): ${describeLoad(bare)}. Tributary on PGlite: ${describeLoad(onPglite)}.`,
      ...problems.map(([who, problem]) => `**${who}: ${problem}** (its figures are not trustworthy).`),
    ],
  };
}
