import autocannon from 'autocannon';
import { assertLocal } from './process.js';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** concurrent connections (50) */
  connections?: number;
  /** measured seconds (10) */
  durationSec?: number;
  /** seconds of the same load before measuring, discarded (2): JIT, pools and caches warm up */
  warmupSec?: number;
}

export interface LoadResult {
  /** completed requests per second over the measured window */
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** requests completed during the warm-up (not in the figures above) */
  warmupTotal: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

async function fire(options: LoadOptions, durationSec: number): Promise<autocannon.Result> {
  return autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections ?? 50,
    duration: durationSec,
    timeout: 10,
    // Without a bailout autocannon keeps going through errors; the result counts them.
  });
}

/**
 * Loads one URL with autocannon (in this process; the server under test runs
 * in its own child process) and returns throughput and latency. Bounded in
 * time by `warmupSec + durationSec`.
 */
export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  assertLocal(options.url);
  const warmup = options.warmupSec ?? 2;
  const warmupTotal = warmup > 0 ? (await fire(options, warmup)).requests.total : 0;
  const result = await fire(options, options.durationSec ?? 10);
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    warmupTotal,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Why a load result cannot be trusted (errors or non-2xx answers), or undefined. */
export function loadProblem(result: LoadResult): string | undefined {
  if (result.total === 0) return 'no request completed';
  if (result.errors || result.non2xx) return `${result.errors} connection errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx answers of ${result.total}`;
  return undefined;
}
