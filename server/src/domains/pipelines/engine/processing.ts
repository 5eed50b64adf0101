/**
 * GitLab's atomic pipeline processing (Ci::PipelineProcessing::AtomicProcessingService with
 * Ci::ProcessBuildService), as a pure function: given the latest jobs of a pipeline, which
 * `created` jobs become pending, manual, scheduled or skipped now, and what the stages and the
 * pipeline are then.
 *
 * A job waits until what comes before it is complete: every job of the earlier stages (stage
 * scheduling), or the jobs it `needs` (DAG; composite with `dag`, so a skipped need or an
 * unplayed optional manual need skips it). Nothing before it counts as success. Then its `when`
 * decides: on_success, manual and delayed run after success (stage jobs also after skipped),
 * on_failure after failed, always after any of the three; otherwise it is skipped.
 */
import type { JobWhen } from '../config/types.js';
import { compositeStatus, type StatusOf } from './composite.js';
import { isCompleted, type Status } from './status.js';

export interface ProcessableJob extends StatusOf {
  id: number;
  name: string;
  stageIdx: number;
  when: JobWhen;
  /** null: stage scheduling; names of the needed jobs: DAG */
  needs: readonly string[] | null;
}

export interface JobUpdate {
  id: number;
  from: Status;
  to: Status;
}

/** What a job whose predecessors ended with `previous` becomes (ProcessBuildService). */
export function decideJob(when: JobWhen, previous: Status, dag: boolean): Status {
  const valid: readonly Status[] =
    when === 'on_failure' ? ['failed'] : when === 'always' ? ['success', 'failed', 'skipped'] : dag ? ['success'] : ['success', 'skipped'];
  if (!valid.includes(previous)) return 'skipped';
  if (when === 'manual') return 'manual';
  if (when === 'delayed') return 'scheduled';
  return 'pending';
}

/** The status of what comes before `job`, or null while some of it is not complete. */
function previousStatus(job: ProcessableJob, jobs: readonly ProcessableJob[]): Status | null {
  const before = job.needs === null ? jobs.filter((other) => other.stageIdx < job.stageIdx) : jobs.filter((other) => job.needs!.includes(other.name));
  const status = compositeStatus(before, { dag: job.needs !== null }).status ?? 'success';
  return isCompleted(status) ? status : null;
}

/**
 * Advances every `created` job that can move, in stage order; jobs of one stage that need each
 * other are settled by repeating the pass until nothing changes. Returns the updates only.
 */
export function processJobs(input: readonly ProcessableJob[]): JobUpdate[] {
  const jobs = input.map((job) => ({ ...job }));
  const updates = new Map<number, JobUpdate>();
  const order = [...jobs].sort((a, b) => a.stageIdx - b.stageIdx || a.id - b.id);
  for (let changed = true; changed; ) {
    changed = false;
    for (const job of order) {
      if (job.status !== 'created') continue;
      const previous = previousStatus(job, jobs);
      if (previous === null) continue;
      const to = decideJob(job.when, previous, job.needs !== null);
      updates.set(job.id, { id: job.id, from: updates.get(job.id)?.from ?? job.status, to });
      job.status = to;
      changed = true;
    }
  }
  return [...updates.values()];
}

/** A stage's status: the composite of its jobs. */
export function stageStatus(jobs: readonly StatusOf[]): Status {
  return compositeStatus(jobs).status ?? 'skipped';
}

/** A pipeline's status: the composite of all its latest jobs (no jobs: skipped). */
export function pipelineStatus(jobs: readonly StatusOf[]): Status {
  return compositeStatus(jobs).status ?? 'skipped';
}

/**
 * The status a pipeline moves to when its jobs' composite is `computed`: GitLab's pipeline
 * state machine enqueues a pipeline that had finished (a retry) into running, not pending.
 */
export function nextPipelineStatus(previous: Status, computed: Status): Status {
  if (computed === 'pending' && ['success', 'failed', 'canceled', 'canceling'].includes(previous)) return 'running';
  return computed;
}

/**
 * Jobs to process again after `played` runs (GitLab's ResetSkippedJobsService): skipped jobs
 * of later stages that schedule by stage, and skipped jobs that need it, directly or through
 * another reset job.
 */
export function jobsToReset(played: Pick<ProcessableJob, 'name' | 'stageIdx'>, jobs: readonly ProcessableJob[]): number[] {
  const reset = new Set<number>();
  const names = new Set([played.name]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const job of jobs) {
      if (reset.has(job.id) || job.status !== 'skipped' || job.name === played.name) continue;
      const byStage = job.needs === null && job.stageIdx > played.stageIdx;
      const byNeeds = job.needs !== null && job.needs.some((need) => names.has(need));
      if (byStage || byNeeds) {
        reset.add(job.id);
        names.add(job.name);
        changed = true;
      }
    }
  }
  return [...reset];
}
