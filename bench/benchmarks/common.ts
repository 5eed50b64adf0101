/** What every benchmark shares: tunables, the result shape, the verdict. */
import { join } from 'node:path';
import type { Cleanup } from '../lib/cleanup.js';
import type { Row, Verdict } from '../lib/table.js';
import { REPO_ROOT } from '../lib/tributary.js';

export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const COMMITS = Number(process.env.BENCH_COMMITS ?? 10_000);
export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
export const ROOT_PASSWORD = 'Bench-root-Passw0rd-only-on-127.0.0.1';
export const RESULTS_FILE = join(REPO_ROOT, 'bench', 'results.md');

export const verdict = (ok: boolean): Verdict => (ok ? 'pass' : 'FAIL');

export interface BenchResult {
  rows: Row[];
  notes: string[];
}

export interface Benchmark {
  id: string;
  title: string;
  run(cleanup: Cleanup): Promise<BenchResult>;
}

/** CPU milliseconds per request, or '?' where /proc could not tell. */
export const cpuText = (ms: number | undefined) => (ms === undefined ? '?' : `${ms.toFixed(2)} ms`);
