import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The nearest-rank percentile (0 < p ≤ 100): the smallest of the values that at least p % of
 * them are at or below. Of 5 values, the 75th is the 4th smallest; of 3, the largest.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile out of range: ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

/** Runs `fn` and returns its result with the elapsed wall time in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function formatRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')} req/s`;
}

/** `value / baseline`, as `1.23×`. */
export function formatRatio(ratio: number): string {
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(0)} %`;
}

/** `a, b, c` in ms, for showing every sample beside a median. */
export function formatSamples(values: readonly number[]): string {
  return values.map((value) => formatMs(value)).join(', ');
}
