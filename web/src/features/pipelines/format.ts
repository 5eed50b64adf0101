/** Pure presentation rules of the pipeline pages. */

/** A duration in seconds as GitLab's pipeline lists show it: `00:01:05`; '—' when there is none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const whole = Math.round(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/** GitLab's callout texts for a job's failure_reason (CommitStatusPresenter); others are humanized. */
const FAILURE_MESSAGES: Record<string, string> = {
  unknown_failure: 'There is an unknown failure, please try again',
  api_failure: 'There has been an API failure, please try again',
  stuck_or_timeout_failure: 'There has been a timeout failure or the job got stuck. Check your timeout limits or try again',
  runner_system_failure: 'There has been a runner system failure, please try again',
  missing_dependency_failure: 'There has been a missing dependency failure',
  runner_unsupported: 'Your runner is outdated, please upgrade your runner',
  stale_schedule: 'Delayed job could not be executed by some reason, please try again',
  job_execution_timeout: 'The script exceeded the maximum execution time set for the job',
  archived_failure: 'The job is archived and cannot be run',
  unmet_prerequisites: 'The job failed to complete prerequisite tasks',
  scheduler_failure: 'The scheduler failed to assign job to the runner, please try again or contact system administrator',
  data_integrity_failure: 'There has been a structural integrity problem detected, please contact system administrator',
};

/** The failure message of a failed job: GitLab's callout text, else the reason in words ("script failure"). */
export function failureMessage(reason: string | undefined | null): string {
  if (!reason) return FAILURE_MESSAGES.unknown_failure!;
  return FAILURE_MESSAGES[reason] ?? reason.replace(/_/g, ' ');
}

/** GitLab's names of pipeline sources, as the list's filter and rows show them. */
export const SOURCES: Record<string, string> = {
  push: 'push',
  web: 'web',
  api: 'api',
  trigger: 'trigger',
  schedule: 'schedule',
  merge_request_event: 'merge_request_event',
  pipeline: 'pipeline',
  parent_pipeline: 'parent_pipeline',
  chat: 'chat',
  external: 'external',
};

/** The statuses the list filters by (GitLab's `status` parameter). */
export const PIPELINE_STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'] as const;

/** A pipeline status in GitLab's words ("success" reads "passed"). */
export function statusText(status: string): string {
  if (status === 'success') return 'passed';
  if (status === 'waiting_for_resource') return 'waiting for resource';
  return status;
}

/** Which job status stands for a stage in the mini graph: the first of this order that a job has. */
const STAGE_ORDER = ['failed', 'running', 'canceling', 'pending', 'preparing', 'waiting_for_resource', 'created', 'scheduled', 'manual', 'canceled', 'success', 'skipped'];

/** A stage's status from its jobs' (an allowed failure counts as success), for the list's stage badges. */
export function stageStatus(jobs: { status: string; allow_failure: boolean }[]): string {
  const statuses = new Set(jobs.map((job) => (job.status === 'failed' && job.allow_failure ? 'success' : job.status)));
  return STAGE_ORDER.find((status) => statuses.has(status)) ?? 'created';
}

/** A test's or suite's time in seconds as the Tests tab shows it: `1.25 s`, `< 1 ms`, `2 min 5 s`. */
export function formatTestTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0 s';
  if (seconds < 0.001) return '< 1 ms';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${Number(seconds.toFixed(2))} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** Passed out of the tests that ran (skipped ones left out), GitLab's success percentage: `66.67%`. */
export function successRate(counts: { total_count: number; success_count: number; skipped_count: number }): string {
  const ran = counts.total_count - counts.skipped_count;
  if (ran <= 0) return '0%';
  return `${Number(((counts.success_count / ran) * 100).toFixed(2))}%`;
}
