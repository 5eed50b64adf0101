/** The timing loops of the benchmarks that sample one read: an API GET, or the same rows through node-postgres. */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { assertLocal } from './process.js';
import { timed } from './stats.js';

/** `count` timings of `run`, one after the other (after the caller's warm-up). */
export async function samplesOf(count: number, run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push((await timed(run)).ms);
  return samples;
}

/** A GET with a token, timed to the last byte of its JSON answer. */
export async function timedGet(url: string, token: string): Promise<{ ms: number; body: any }> {
  assertLocal(url);
  const start = performance.now();
  const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': token }, signal: AbortSignal.timeout(30_000) });
  const body = await response.json();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return { ms, body };
}

/** `count` timings of `run` on one node-postgres connection, after one warm-up run: the raw SQL baseline. */
export async function rawSqlSamples(url: string, count: number, run: (client: pg.Client) => Promise<unknown>): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
    return await samplesOf(count, () => run(client));
  } finally {
    await client.end().catch(() => undefined);
  }
}
