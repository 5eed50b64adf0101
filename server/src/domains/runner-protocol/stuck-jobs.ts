import type { Database } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { RunnerJobsRepository, RunningJob } from './runner-jobs.repository.js';

export const STUCK_JOBS_JOB = 'ci.stuck_jobs';

/** GitLab's StuckCiJobsWorker: a running job not updated for an hour is stuck (BUILD_RUNNING_OUTDATED_TIMEOUT). */
export const RUNNING_OUTDATED_SECONDS = 3600;
/** A claim older than this was left by a process that died between claiming and starting the job. */
export const STALE_CLAIM_SECONDS = 120;
const EVERY_SECONDS = 300;
const SCHEDULE_LOCK = 7_314_430;

/**
 * Why a silent running job is failed: its runner was deleted (runner_system_failure), or it
 * stopped reporting (stuck_or_timeout_failure). Pure. A pending job no runner can take is never
 * failed here: it stays pending, and the API shows it as stuck, as GitLab does.
 */
export function stuckFailureReason(job: Pick<RunningJob, 'runner_exists' | 'updated_at'>, now: Date, outdatedSeconds = RUNNING_OUTDATED_SECONDS): 'runner_system_failure' | 'stuck_or_timeout_failure' | null {
  if (!job.runner_exists) return 'runner_system_failure';
  if (now.getTime() - job.updated_at.getTime() >= outdatedSeconds * 1000) return 'stuck_or_timeout_failure';
  return null;
}

export function createStuckJobs(deps: {
  db: Pick<Database, 'transaction'>;
  jobs: Pick<RunnerJobsRepository, 'silentRunningJobs' | 'releaseStaleClaims'>;
  engine: Pick<PipelineEngine, 'recordJobResult'>;
  /** logs a crash (or an unreachable store) left in chunks after their job ended */
  finalizeLeftLogs?: () => Promise<unknown>;
  /** artifacts past their expire_in */
  removeExpiredArtifacts?: () => Promise<unknown>;
  queue: Pick<JobQueue, 'enqueue'>;
  outdatedSeconds?: number;
  now?: () => Date;
}) {
  const outdated = deps.outdatedSeconds ?? RUNNING_OUTDATED_SECONDS;
  const now = deps.now ?? (() => new Date());

  /** One pending sweep at a time: a start schedules it when none is, each run schedules the next. */
  async function schedule(runAt?: Date, current?: number): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEDULE_LOCK]);
      const { rowCount } = await tx.query(`SELECT 1 FROM background_jobs WHERE queue = $1 AND state IN ('pending', 'running') AND id IS DISTINCT FROM $2`, [STUCK_JOBS_JOB, current ?? null]);
      if (rowCount === 0) await deps.queue.enqueue(STUCK_JOBS_JOB, {}, { tx, runAt });
    });
  }

  return {
    schedule: () => schedule(),

    /** Fails the stuck running jobs, frees stale claims, finalizes left logs, removes expired artifacts; returns the failed job ids. */
    async sweep(): Promise<number[]> {
      await deps.jobs.releaseStaleClaims(STALE_CLAIM_SECONDS);
      await deps.finalizeLeftLogs?.();
      await deps.removeExpiredArtifacts?.();
      const failed: number[] = [];
      for (const job of await deps.jobs.silentRunningJobs(outdated)) {
        const reason = stuckFailureReason(job, now(), outdated);
        if (!reason) continue;
        try {
          await deps.engine.recordJobResult(job.id, { status: 'failed', failureReason: reason });
          failed.push(job.id);
        } catch {
          // The runner reported first: nothing is stuck.
        }
      }
      return failed;
    },

    /** The queue job: a sweep, then the next one. */
    async run(jobId?: number): Promise<void> {
      await this.sweep();
      await schedule(new Date(Date.now() + EVERY_SECONDS * 1000), jobId);
    },
  };
}

export type StuckJobs = ReturnType<typeof createStuckJobs>;
