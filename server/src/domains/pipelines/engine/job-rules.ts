/**
 * GitLab's small per-job rules, pure: automatic retry (`retry: max/when/exit_codes`),
 * `allow_failure: exit_codes`, what may be retried, played or canceled, and which older
 * pipelines a new push cancels (`interruptible`).
 */
import type { Status } from './status.js';

/** GitLab's failure reasons a runner or the server reports (CommitStatus#failure_reason). */
export const FAILURE_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
  'forward_deployment_failure',
  'user_blocked',
  'project_deleted',
  'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found',
  'invalid_bridge_trigger',
  'bridge_pipeline_is_child_pipeline',
  'downstream_pipeline_creation_failed',
  'secrets_provider_not_found',
  'reached_max_descendant_pipelines_depth',
  'ip_restriction_failure',
  'reached_max_pipeline_hierarchy_size',
  'pipeline_loop_detected',
  'config_error',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface RetryOption {
  max: number;
  when: string[];
  exitCodes?: number[];
}

/**
 * Is a job that just failed retried automatically? While it was retried fewer than `max`
 * times, its reason is one of `when` (`always` by default) and, when `exit_codes` are given,
 * its exit code is one of them.
 */
export function shouldAutoRetry(retry: RetryOption | undefined, retriedSoFar: number, reason: string, exitCode: number | null): boolean {
  if (!retry || retry.max <= 0 || retriedSoFar >= retry.max) return false;
  const when = retry.when.length > 0 ? retry.when : ['always'];
  if (!when.includes('always') && !when.includes(reason)) return false;
  if (retry.exitCodes && retry.exitCodes.length > 0) return exitCode !== null && retry.exitCodes.includes(exitCode);
  return true;
}

/** `allow_failure: exit_codes`: a failure with one of these codes is allowed. */
export function allowedToFailWithCode(codes: readonly number[] | null, exitCode: number | null): boolean {
  return exitCode !== null && codes !== null && codes.includes(exitCode);
}

/**
 * A job may be retried once it finished and while it is the latest of its name (Ci::Build#retryable?);
 * a trigger job that failed on a loop or the children depth limit would fail again (Ci::Bridge#retryable?).
 */
export function isRetryable(job: { status: Status; retried: boolean; failure_reason?: string | null }): boolean {
  if (job.status === 'failed' && (job.failure_reason === 'pipeline_loop_detected' || job.failure_reason === 'reached_max_descendant_pipelines_depth')) return false;
  return !job.retried && (job.status === 'success' || job.status === 'failed' || job.status === 'canceled');
}

/**
 * A job may be played when it waits for someone (manual or scheduled); a finished manual job
 * is played by running it again (Ci::Build#playable?).
 */
export function playAction(job: { status: Status; when: string; retried: boolean }): 'enqueue' | 'retry' | null {
  if (job.retried) return null;
  if (job.status === 'manual' || job.status === 'scheduled') return 'enqueue';
  if (job.when === 'manual' && isRetryable(job)) return 'retry';
  return null;
}

/**
 * May a new pipeline of the same ref cancel this older one? GitLab's default
 * (`auto_cancel: on_new_commit: conservative`): only while no job that is not `interruptible`
 * has started.
 */
export function isAutoCancelable(jobs: readonly { status: Status; interruptible: boolean | null }[]): boolean {
  const started: Status[] = ['running', 'success', 'failed'];
  return !jobs.some((job) => started.includes(job.status) && job.interruptible !== true);
}
