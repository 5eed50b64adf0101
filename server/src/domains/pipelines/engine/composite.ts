/**
 * GitLab's composite status (Gitlab::Ci::Status::Composite): the status of a set of jobs, used
 * for a stage, a pipeline, and (with `dag`) a job's `needs`. A failed or canceled job that may
 * fail counts as success with warnings; a manual job that may fail is ignored (it blocks
 * nothing). Then the first matching rule over the set of values wins.
 */
import type { Status } from './status.js';

export interface StatusOf {
  status: Status;
  allowFailure: boolean;
}

export interface Composite {
  /** null for an empty set (callers decide: GitLab treats "nothing before" as success) */
  status: Status | null;
  /** a job that was allowed to fail failed (GitLab's success-with-warnings) */
  warnings: boolean;
}

type Value = Status | 'success_with_warnings' | 'ignored';

function valueOf(job: StatusOf): Value {
  if (job.allowFailure && (job.status === 'failed' || job.status === 'canceled')) return 'success_with_warnings';
  if (job.allowFailure && job.status === 'manual') return 'ignored';
  return job.status;
}

export function compositeStatus(jobs: readonly StatusOf[], options: { dag?: boolean } = {}): Composite {
  const set = new Set<Value>(jobs.map(valueOf));
  const warnings = set.has('success_with_warnings');
  if (set.size === 0) return { status: null, warnings: false };
  const onlyOf = (...values: Value[]) => [...set].every((value) => values.includes(value));
  const anyOf = (...values: Value[]) => values.some((value) => set.has(value));
  let status: Status;
  if (options.dag && anyOf('skipped', 'ignored')) status = 'skipped';
  else if (onlyOf('skipped', 'ignored')) status = 'skipped';
  else if (onlyOf('success', 'skipped', 'success_with_warnings', 'ignored')) status = 'success';
  else if (onlyOf('created', 'success_with_warnings', 'ignored')) status = 'created';
  else if (onlyOf('preparing', 'success_with_warnings', 'ignored')) status = 'preparing';
  else if (onlyOf('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) status = 'canceled';
  else if (onlyOf('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) status = 'pending';
  else if (anyOf('running', 'pending')) status = 'running';
  else if (anyOf('waiting_for_resource')) status = 'waiting_for_resource';
  else if (anyOf('manual')) status = 'manual';
  else if (anyOf('scheduled')) status = 'scheduled';
  else if (anyOf('preparing')) status = 'preparing';
  else if (anyOf('created')) status = 'running';
  else if (anyOf('canceling')) status = 'canceling';
  else status = 'failed';
  return { status, warnings };
}
