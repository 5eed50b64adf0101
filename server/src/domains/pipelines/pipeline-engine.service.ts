/**
 * The pipeline engine: every job transition, in one transaction that first locks the
 * pipeline row (one processing of a pipeline at a time, whatever the number of server
 * processes) and then moves the job by compare-and-swap on its status, so of two racing
 * transitions exactly one wins. After each transition the pipeline is processed again
 * (engine/processing.ts): waiting jobs become pending, manual, scheduled or skipped, and the
 * stages and the pipeline take their composite status.
 *
 * The runner protocol calls `assignJob` when a runner picks a pending job and
 * `recordJobResult` when it reports the end of one.
 */
import type { Database, Queryable } from '../../platform/db/database.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/queue.js';
import { parseDuration } from './config/duration.js';
import { allowedToFailWithCode, isAutoCancelable, isRetryable, playAction, shouldAutoRetry } from './engine/job-rules.js';
import { jobsToReset, nextPipelineStatus, pipelineStatus, processJobs, stageStatus, type ProcessableJob } from './engine/processing.js';
import { CANCELABLE_STATUSES, isCompleted, STATUSES, type JobEvent, type Status } from './engine/status.js';
import type { JobListener, JobRow, PipelineRow } from './pipeline.js';
import type { JobChanges, PipelinesRepository } from './pipelines.repository.js';
import type { ResourceGroupsRepository } from './resource-groups.repository.js';
import type { DownstreamRepository } from './downstream/downstream.repository.js';
import { createBatchedJobMoves } from './batched-job-moves.js';
import { createJobMove } from './job-move.js';
import { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, UPDATE_BRIDGE_STATUS_JOB } from './pipeline-queue-jobs.js';
import { createResourceGroupEnqueue } from './resource-group-enqueue.js';

export { ASSIGN_RESOURCE_JOB, CANCEL_PIPELINE_JOB, CREATE_DOWNSTREAM_JOB, ENQUEUE_SCHEDULED_JOB, UPDATE_BRIDGE_STATUS_JOB } from './pipeline-queue-jobs.js';

/** A bridge's events go from any status (GitLab's Ci::Bridge state machine): a retried child can turn a failed bridge to success. */
const ANY_STATUS: readonly Status[] = STATUSES;

/** A transition another process (or request) made impossible first: the loser of a race. */
export class JobTransitionConflict extends ConflictError {
  constructor(jobId: number, event: JobEvent, status: Status) {
    super(`409 Conflict - job ${jobId} cannot ${event} from ${status}`);
  }
}

export class UnretryableJobError extends Error {}
export class UnplayableJobError extends Error {}
/** Only a scheduled (`when: delayed`) job can be unscheduled. */
export class UnschedulableJobError extends Error {}

export interface JobResult {
  status: 'success' | 'failed';
  /** GitLab's failure reason (engine/job-rules.ts FAILURE_REASONS); unknown_failure by default */
  failureReason?: string;
  exitCode?: number | null;
  coverage?: number | null;
}

const toProcessable = (job: JobRow): ProcessableJob => ({
  id: job.id,
  name: job.name,
  stageIdx: job.stage_idx,
  status: job.status,
  when: job.when,
  allowFailure: job.allow_failure,
  needs: job.scheduling_type === 'dag' ? job.needs.map((need) => need.name) : null,
});

const seconds = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

export function createPipelineEngine(deps: {
  db: Pick<Database, 'transaction'>;
  pipelines: PipelinesRepository;
  resourceGroups: ResourceGroupsRepository;
  downstream: Pick<DownstreamRepository, 'downstreamOf'>;
  queue: Pick<JobQueue, 'enqueue'>;
  now?: () => Date;
  /** told of every transition in its transaction (the domain's index.ts fills it) */
  listeners?: readonly JobListener[];
}) {
  const now = deps.now ?? (() => new Date());
  const repo = deps.pipelines;

  const move = createJobMove({ pipelines: repo, resourceGroups: deps.resourceGroups, queue: deps.queue, now, listeners: deps.listeners });
  const enqueue = createResourceGroupEnqueue({ move, resourceGroups: deps.resourceGroups, queue: deps.queue });
  const moveMany = createBatchedJobMoves({ pipelines: repo, queue: deps.queue, now, listeners: deps.listeners });

  /** Recomputes the pipeline under its lock: waiting jobs advance, stages and pipeline follow. */
  async function process(pipelineId: number, tx: Queryable): Promise<PipelineRow | null> {
    const pipeline = await repo.lockPipeline(pipelineId, tx);
    if (!pipeline) return null;
    let jobs = await repo.latestJobs(pipelineId, tx);
    // A commit status (generic job) moves only when its outside system posts a state; it counts
    // in the stage and pipeline status but is never advanced by processing (GitLab's processables).
    const updates = processJobs(jobs.filter((job) => job.type !== 'generic').map(toProcessable));
    if (updates.length > 0) {
      const byId = new Map(jobs.map((job) => [job.id, job]));
      const eventOf = (to: string): JobEvent => (to === 'pending' ? 'enqueue' : to === 'manual' ? 'actionize' : to === 'scheduled' ? 'schedule' : 'skip');
      // Jobs moving alike (to pending, manual or skipped) move in one statement: a 500-job pipeline's
      // first processing is a few round trips. Scheduled jobs each get their own time and queue job.
      const batches = new Map<JobEvent, number[]>();
      for (const update of updates) {
        const job = byId.get(update.id)!;
        const event = eventOf(update.to);
        if (update.to === 'scheduled') {
          await move(job, event, tx, { scheduled_at: new Date(now().getTime() + (parseDuration(job.start_in ?? '') ?? 0) * 1000) });
          continue;
        }
        // A job of a resource group waits for the group's resource: it moves on its own.
        if (update.to === 'pending' && job.resource_group_key !== null) {
          await enqueue(job, 'enqueue', tx);
          continue;
        }
        batches.set(event, [...(batches.get(event) ?? []), job.id]);
      }
      for (const [event, ids] of batches) await moveMany(ids, byId, event, tx);
      jobs = await repo.latestJobs(pipelineId, tx);
    }
    for (const stage of await repo.stages(pipelineId, tx)) {
      const inStage = jobs.filter((job) => job.stage_id === stage.id).map(toProcessable);
      if (inStage.length > 0) await repo.updateStageStatus(stage.id, stageStatus(inStage), tx);
    }
    const status = jobs.length > 0 ? nextPipelineStatus(pipeline.status, pipelineStatus(jobs.map(toProcessable))) : pipeline.status;
    if (status === pipeline.status) return processed(pipeline, tx);
    const at = now();
    const changes: Parameters<PipelinesRepository['updatePipeline']>[1] = { status };
    if (status === 'running' && !pipeline.started_at) {
      changes.started_at = at;
      changes.queued_duration = seconds(pipeline.created_at, at);
    }
    if (isCompleted(status)) {
      changes.finished_at = at;
      const started = changes.started_at ?? pipeline.started_at;
      changes.duration = started ? seconds(started, at) : null;
      const covered = jobs.filter((job) => job.coverage !== null);
      changes.coverage = covered.length > 0 ? covered.reduce((sum, job) => sum + job.coverage!, 0) / covered.length : null;
    } else if (pipeline.finished_at) {
      changes.finished_at = null;
    }
    await repo.updatePipeline(pipelineId, changes, tx);
    // A triggered pipeline tells its bridge (one with `strategy` follows it), after this commit.
    if (pipeline.source === 'parent_pipeline' || pipeline.source === 'pipeline') await deps.queue.enqueue(UPDATE_BRIDGE_STATUS_JOB, { pipelineId }, { tx });
    return processed({ ...pipeline, ...changes } as PipelineRow, tx);
  }

  /** Tells the listeners (live pages) that the pipeline was processed in `tx`. */
  async function processed(pipeline: PipelineRow, tx: Queryable): Promise<PipelineRow> {
    for (const listener of deps.listeners ?? []) await listener.pipelineProcessed?.(pipeline, tx);
    return pipeline;
  }

  /** `fn` in one transaction holding the job's pipeline lock, then processing. */
  async function withJob<T>(jobId: number, fn: (job: JobRow, tx: Queryable) => Promise<T>): Promise<T> {
    return deps.db.transaction(async (tx) => {
      const first = await repo.findJob(jobId, tx);
      if (!first) throw new NotFoundError('Job');
      await repo.lockPipeline(first.pipeline_id, tx);
      // Read again under the lock: the status another transition left is the one to compare.
      const job = (await repo.findJob(jobId, tx))!;
      const result = await fn(job, tx);
      await process(job.pipeline_id, tx);
      return result;
    });
  }

  async function resetSkippedAfter(job: JobRow, tx: Queryable): Promise<void> {
    const latest = await repo.latestJobs(job.pipeline_id, tx);
    for (const id of jobsToReset(toProcessable(job), latest.map(toProcessable))) {
      await move(latest.find((other) => other.id === id)!, 'process', tx);
    }
  }

  async function retryInTx(job: JobRow, userId: number | null, tx: Queryable, options: { enqueueIfActionable: boolean; variables?: { key: string; value: string }[] }): Promise<JobRow> {
    const id = await repo.cloneJob(job.id, userId, tx);
    if (id === null) throw new UnretryableJobError();
    let copy = (await repo.findJob(id, tx))!;
    if (options.variables) copy = (await repo.casJobStatus(id, ['created'], 'created', { job_variables: options.variables }, tx))!;
    // A retried manual job runs at once: the user asked for it (GitLab's enqueue_if_actionable).
    if (options.enqueueIfActionable && (copy.when === 'manual' || copy.when === 'delayed')) copy = (await enqueue(copy, 'enqueue', tx, userId ? { user_id: userId } : {}))!;
    await resetSkippedAfter(copy, tx);
    return copy;
  }

  /** Cancels what a pipeline cancel stops; a running job with a runner is told to stop (canceling). */
  async function cancelJobs(pipelineId: number, tx: Queryable): Promise<void> {
    for (const job of await repo.latestJobs(pipelineId, tx)) {
      if (!CANCELABLE_STATUSES.includes(job.status)) continue;
      await move(job, job.status === 'running' && job.runner_id !== null ? 'start_cancel' : 'cancel', tx);
    }
    // Child pipelines go with their parent (not multi-project ones); each is canceled after this commit.
    for (const child of await deps.downstream.downstreamOf(pipelineId, tx)) {
      if (child.source === 'parent_pipeline' && !isCompleted(child.status)) await deps.queue.enqueue(CANCEL_PIPELINE_JOB, { pipelineId: child.id }, { tx });
    }
  }

  return {
    process,

    /**
     * Applies `event` to a job in the caller's transaction, which must hold the pipeline's lock
     * (lockPipeline) and process it afterwards; null when the job's status does not allow it.
     */
    moveInTx: (job: Pick<JobRow, 'id' | 'status'>, event: JobEvent, tx: Queryable, extra: JobChanges = {}) => move(job, event, tx, extra),

    /** Processes a pipeline in its own transaction (after creation, or to repair). */
    processPipeline(pipelineId: number): Promise<PipelineRow | null> {
      return deps.db.transaction((tx) => process(pipelineId, tx));
    },

    /**
     * Runner protocol: a runner picked pending job `jobId`. Null when another runner (or a
     * cancel) got there first.
     */
    async assignJob(jobId: number, runner: { runnerId: number; tokenHash: string }): Promise<JobRow | null> {
      return withJob(jobId, (job, tx) => move(job, 'run', tx, { runner_id: runner.runnerId, token_hash: runner.tokenHash }));
    },

    /**
     * Runner protocol: the runner reports job `jobId` finished. A job being canceled ends
     * canceled whatever it reports; a failure with an allowed exit code is allowed; a failure
     * `retry` covers makes a new copy of the job. Throws JobTransitionConflict when the job is
     * no longer running (already finished or canceled).
     */
    async recordJobResult(jobId: number, result: JobResult): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        const extra: JobChanges = {};
        if (result.exitCode !== undefined) extra.exit_code = result.exitCode;
        if (result.coverage !== undefined) extra.coverage = result.coverage;
        if (job.status === 'canceling') {
          const moved = await move(job, 'finish_cancel', tx, extra);
          if (!moved) throw new JobTransitionConflict(jobId, 'finish_cancel', job.status);
          return moved;
        }
        if (result.status === 'success') {
          const moved = await move(job, 'success', tx, extra);
          if (!moved) throw new JobTransitionConflict(jobId, 'success', job.status);
          return moved;
        }
        const reason = result.failureReason ?? 'unknown_failure';
        const exitCode = result.exitCode ?? null;
        if (allowedToFailWithCode(job.allow_failure_exit_codes, exitCode)) extra.allow_failure = true;
        const moved = await move(job, 'drop', tx, { ...extra, failure_reason: reason });
        if (!moved) throw new JobTransitionConflict(jobId, 'drop', job.status);
        if (shouldAutoRetry(job.options.retry, await repo.retriedCount(job.pipeline_id, job.name, tx), reason, exitCode)) {
          await retryInTx(moved, null, tx, { enqueueIfActionable: false });
        }
        return moved;
      });
    },

    /** Applies one state-machine event to a job (tests, and the runner protocol's extra states). */
    async transitionJob(jobId: number, event: JobEvent, extra: JobChanges = {}): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        const moved = await move(job, event, tx, extra);
        if (!moved) throw new JobTransitionConflict(jobId, event, job.status);
        return moved;
      });
    },

    /** Cancels one job: a running job with a runner goes to canceling, others to canceled. */
    async cancelJob(jobId: number): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        const moved = await move(job, job.status === 'running' && job.runner_id !== null ? 'start_cancel' : 'cancel', tx);
        return moved ?? job;
      });
    },

    /** A new copy of a finished job (the old one becomes retried); manual jobs run at once. */
    async retryJob(jobId: number, userId: number | null): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        if (job.type === 'generic' || !isRetryable(job)) throw new UnretryableJobError();
        return retryInTx(job, userId, tx, { enqueueIfActionable: true });
      });
    },

    /** Plays a manual or scheduled job (with variables), or runs a finished manual job again. */
    async playJob(jobId: number, userId: number | null, variables?: { key: string; value: string }[]): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        const action = playAction(job);
        if (action === null) throw new UnplayableJobError();
        if (action === 'retry') return retryInTx(job, userId, tx, { enqueueIfActionable: true, variables });
        const moved = await enqueue(job, 'enqueue', tx, { ...(userId ? { user_id: userId } : {}), ...(variables ? { job_variables: variables } : {}) });
        if (!moved) throw new UnplayableJobError();
        await resetSkippedAfter(moved, tx);
        return moved;
      });
    },

    /**
     * Unschedules a delayed job: it stops waiting for its time and becomes a manual job, run only
     * when someone plays it (GitLab's BuildUnscheduleService; the scheduled time is cleared, and the
     * queue job waiting for it finds the job no longer scheduled).
     */
    async unscheduleJob(jobId: number): Promise<JobRow> {
      return withJob(jobId, async (job, tx) => {
        if (job.status !== 'scheduled') throw new UnschedulableJobError();
        const moved = await move(job, 'unschedule', tx, { scheduled_at: null });
        if (!moved) throw new UnschedulableJobError();
        return moved;
      });
    },

    /** The queue job for a delayed job: pending once its time has come. */
    async enqueueScheduled(jobId: number): Promise<void> {
      await withJob(jobId, async (job, tx) => {
        if (job.status !== 'scheduled' || !job.scheduled_at || job.scheduled_at.getTime() > now().getTime()) return;
        await enqueue(job, 'enqueue_scheduled', tx);
      });
    },

    /**
     * The assignment job: hands a group's free resource to its next waiting job (by the group's
     * process mode), under that job's pipeline lock, then the group's row by compare-and-swap.
     */
    async assignResource(projectId: number, key: string): Promise<JobRow | null> {
      const group = await deps.resourceGroups.find(projectId, key);
      if (!group) return null;
      for (const candidate of await deps.resourceGroups.waitingJobs(group)) {
        const outcome = await deps.db.transaction(async (tx) => {
          await repo.lockPipeline(candidate.pipeline_id, tx);
          const job = await repo.findJob(candidate.id, tx);
          if (!job || job.status !== 'waiting_for_resource') return 'gone' as const;
          if (!(await deps.resourceGroups.take(projectId, key, job.id, tx))) return 'busy' as const;
          const moved = await move(job, 'enqueue_waiting_for_resource', tx);
          await process(job.pipeline_id, tx);
          return moved;
        });
        if (outcome === 'busy') return null;
        if (outcome !== 'gone') return outcome;
      }
      return null;
    },

    /** A trigger job starts creating its downstream pipeline (pending → running); null when it no longer may. */
    async runBridge(bridgeId: number): Promise<JobRow | null> {
      return withJob(bridgeId, (job, tx) => (job.type === 'bridge' ? move(job, 'run', tx) : Promise.resolve(null)));
    },

    /**
     * A trigger job ends as its downstream pipeline decides (created, refused, or followed with
     * `strategy`): success, failed with GitLab's failure reason, canceled, skipped or manual.
     */
    async settleBridge(bridgeId: number, to: Status, failureReason?: string): Promise<JobRow | null> {
      return withJob(bridgeId, async (job, tx) => {
        if (job.type !== 'bridge' || job.status === to) return null;
        const extra: JobChanges = { ...(isCompleted(to) ? { finished_at: now() } : {}), ...(to === 'failed' ? { failure_reason: failureReason ?? 'unknown_failure' } : {}) };
        const moved = await repo.casJobStatus(job.id, ANY_STATUS.filter((status) => status !== to), to, extra, tx);
        if (moved) {
          if (isCompleted(to) && moved.resource_group_key !== null) {
            const released = await deps.resourceGroups.release(moved.id, tx);
            if (released) await deps.queue.enqueue(ASSIGN_RESOURCE_JOB, { projectId: released.project_id, key: released.key }, { tx });
          }
          for (const listener of deps.listeners ?? []) await listener.jobMoved?.(moved, tx);
        }
        return moved;
      });
    },

    /** Retries every failed or canceled job and processes the skipped ones again (GitLab's RetryPipelineService). */
    async retryPipeline(pipelineId: number, userId: number | null): Promise<PipelineRow> {
      return deps.db.transaction(async (tx) => {
        await repo.lockPipeline(pipelineId, tx);
        for (const job of await repo.latestJobs(pipelineId, tx)) {
          if (job.type === 'generic') continue; // commit statuses are their outside system's to repeat
          if (job.status === 'failed' || job.status === 'canceled') await retryInTx(job, userId, tx, { enqueueIfActionable: false });
        }
        for (const job of await repo.latestJobs(pipelineId, tx)) if (job.status === 'skipped') await move(job, 'process', tx);
        return (await process(pipelineId, tx))!;
      });
    },

    async cancelPipeline(pipelineId: number): Promise<PipelineRow> {
      return deps.db.transaction(async (tx) => {
        await repo.lockPipeline(pipelineId, tx);
        await cancelJobs(pipelineId, tx);
        return (await process(pipelineId, tx))!;
      });
    },

    /**
     * A new pipeline cancels the older ones of its ref that are redundant (pipelinesRepository's
     * redundantPipelines) unless a job that is not `interruptible` started in them (GitLab's
     * default `auto_cancel: on_new_commit: conservative`), in the caller's transaction.
     */
    async cancelRedundant(pipeline: Pick<PipelineRow, 'id' | 'project_id' | 'ref' | 'tag' | 'sha'>, headSha: string, tx: Queryable): Promise<number[]> {
      const canceled: number[] = [];
      for (const older of await repo.redundantPipelines(pipeline, headSha, tx)) {
        await repo.lockPipeline(older.id, tx);
        if (!isAutoCancelable(await repo.latestJobs(older.id, tx))) continue;
        await cancelJobs(older.id, tx);
        await process(older.id, tx);
        canceled.push(older.id);
      }
      return canceled;
    },
  };
}

export type PipelineEngine = ReturnType<typeof createPipelineEngine>;
