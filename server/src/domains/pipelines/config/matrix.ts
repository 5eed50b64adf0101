/**
 * `parallel: N` and `parallel: matrix`, as GitLab's Entry::Product::Parallel and Matrix:
 * N instances named `name 1/N` … `name N/N`; a matrix is the union of each entry's cartesian
 * product, instances named `name: [v1, v2]` with the values in the entry's key order.
 * At most MAX_PARALLEL instances either way.
 */
import { MAX_PARALLEL } from './limits.js';
import { isPlainObject } from './yaml-loader.js';

export interface ParallelInstance {
  name: string;
  parallel?: { number: number; total: number } | { matrix: Record<string, string> };
  variables: Record<string, string>;
}

export type ParallelConfig = { total: number } | { matrix: Record<string, string>[] };

/** Validates and expands `parallel:`; errors use GitLab's wording and location. */
export function normalizeParallel(value: unknown, at: string, errors: string[]): ParallelConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1) errors.push(`${at}:parallel config must be greater than or equal to 1`);
    else if (value > MAX_PARALLEL) errors.push(`${at}:parallel config must be less than or equal to ${MAX_PARALLEL}`);
    else return { total: value };
    return undefined;
  }
  if (!isPlainObject(value) || !Array.isArray(value.matrix)) {
    errors.push(`${at}:parallel should be an integer or a hash`);
    return undefined;
  }
  const combos: Record<string, string>[] = [];
  for (const entry of value.matrix) {
    if (!isPlainObject(entry)) {
      errors.push(`${at}:parallel:matrix config should be an array of hashes`);
      return undefined;
    }
    let partial: Record<string, string>[] = [{}];
    for (const [key, raw] of Object.entries(entry)) {
      const values = ([] as unknown[]).concat(raw);
      if (!values.every((v) => typeof v === 'string' || typeof v === 'number')) {
        errors.push(`${at}:parallel:matrix:variables config should be a hash of key value pairs, value can be an array`);
        return undefined;
      }
      partial = partial.flatMap((combo) => values.map((v) => ({ ...combo, [key]: String(v) })));
      if (partial.length + combos.length > MAX_PARALLEL) break;
    }
    combos.push(...partial);
    if (combos.length > MAX_PARALLEL) {
      errors.push(`${at}:parallel:matrix config generates too many jobs (maximum is ${MAX_PARALLEL})`);
      return undefined;
    }
  }
  return { matrix: combos };
}

/** The instance name of one matrix combination, GitLab's `name: [v1, v2]`. */
export function matrixInstanceName(name: string, combo: Record<string, string>): string {
  return `${name}: [${Object.values(combo).join(', ')}]`;
}

export function expandParallel(name: string, parallel: ParallelConfig | undefined): ParallelInstance[] {
  if (!parallel) return [{ name, variables: {} }];
  if ('total' in parallel) {
    if (parallel.total === 1) return [{ name, variables: {} }];
    return Array.from({ length: parallel.total }, (_, index) => ({
      name: `${name} ${index + 1}/${parallel.total}`,
      parallel: { number: index + 1, total: parallel.total },
      variables: {},
    }));
  }
  return parallel.matrix.map((combo) => ({
    name: matrixInstanceName(name, combo),
    parallel: { matrix: combo },
    variables: combo,
  }));
}
