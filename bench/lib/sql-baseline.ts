import { createRequire } from 'node:module';
import { join } from 'node:path';
import { childEnv, runCommand } from './process.js';
import { REPO_ROOT } from './tributary.js';

/**
 * The raw-SQL baseline: what PostgreSQL alone allows for a request that
 * makes `roundTrips` sequential queries, through the same driver and pool
 * size the server uses (node-postgres, 10 connections), with `concurrency`
 * requests in flight. Queries are trivial (`SELECT $1::int`), so the figure
 * is the round-trip ceiling, not the cost of Tributary's SQL. Runs in its own
 * process, like the servers.
 */
const SQL_LOOP = `
const pg = require(process.env.BENCH_PG);
const pool = new pg.Pool({ connectionString: process.env.BENCH_URL, max: Number(process.env.BENCH_POOL) });
const roundTrips = Number(process.env.BENCH_ROUND_TRIPS);
const durationMs = Number(process.env.BENCH_DURATION_MS);
let done = 0;
async function worker(until, count) {
  while (Date.now() < until) {
    for (let i = 0; i < roundTrips; i++) await pool.query('SELECT $1::int AS n', [i]);
    if (count) done++;
  }
}
async function run(ms, count) {
  const until = Date.now() + ms;
  await Promise.all(Array.from({ length: Number(process.env.BENCH_CONCURRENCY) }, () => worker(until, count)));
}
(async () => {
  await run(1000, false);
  const start = process.hrtime.bigint();
  await run(durationMs, true);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.end();
  process.stdout.write(JSON.stringify({ rps: done / seconds, total: done }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

export async function measureRawSql(options: { url: string; roundTrips: number; concurrency: number; durationSec: number; poolSize?: number }): Promise<{ rps: number; total: number }> {
  const pgEntry = createRequire(join(REPO_ROOT, 'server', 'package.json')).resolve('pg');
  const { stdout } = await runCommand(process.execPath, ['-e', SQL_LOOP], {
    env: childEnv({
      BENCH_PG: pgEntry,
      BENCH_URL: options.url,
      BENCH_POOL: String(options.poolSize ?? 10),
      BENCH_ROUND_TRIPS: String(Math.max(1, options.roundTrips)),
      BENCH_CONCURRENCY: String(options.concurrency),
      BENCH_DURATION_MS: String(options.durationSec * 1000),
    }),
    cwd: REPO_ROOT,
    timeoutMs: (options.durationSec + 30) * 1000,
  });
  return JSON.parse(stdout) as { rps: number; total: number };
}
