/**
 * Runs pipeline schedules when they are due (GitLab's PipelineScheduleWorker and
 * RunPipelineScheduleWorker).
 *
 * A sweep job (`pipelines.run_due_schedules`) runs every minute: one is pending at a time, as the
 * retention job (a server start schedules it when none is, each run schedules the next, under an
 * advisory lock). A sweep locks the due active schedules with FOR UPDATE SKIP LOCKED, moves each
 * one's next_run_at to its next cron time and enqueues its run job in that transaction, so a due
 * run is claimed once however many processes sweep at the same time, and is not lost if the
 * process dies after the claim.
 *
 * The run job creates the pipeline with source `schedule`, the schedule's variables, as its owner
 * (or, for play, as the caller). When that user may no longer create a pipeline on the ref (no
 * longer a Developer, blocked, the branch protected from them) or the ref is gone, no pipeline is
 * created and the reason is recorded on the schedule (last_skip_reason), as GitLab skips it.
 */
import { actorFor } from '../../auth/actor.js';
import type { Database } from '../../platform/db/database.js';
import type { JobPayloadMap, JobQueue } from '../../platform/queue.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { PipelineCreation } from '../pipelines/pipeline-creation.service.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import { nextRunAt } from './cron.js';
import type { PipelineSchedulesRepository } from './pipeline-schedules.repository.js';
import { RUN_SCHEDULE_JOB, splitRef } from './pipeline-schedules.service.js';

export const RUN_DUE_SCHEDULES_JOB = 'pipelines.run_due_schedules';
export { RUN_SCHEDULE_JOB };

/** Why a run created no pipeline. */
export const SKIP_REASONS = {
  noOwner: 'The pipeline schedule has no owner',
  invalidRef: 'Reference not found',
} as const;

/** pg_advisory_xact_lock key of the sweep's scheduling step (unique among this program's locks). */
const SWEEP_LOCK = 7_314_403;
/** Due schedules claimed by one sweep transaction; the rest wait for the next sweep. */
const BATCH = 100;

export function createPipelineScheduleRunner(deps: {
  db: Pick<Database, 'query' | 'transaction'>;
  queue: Pick<JobQueue, 'enqueue'>;
  schedules: PipelineSchedulesRepository;
  projectRows: Pick<ProjectsRepository, 'findById'>;
  users: Pick<UsersRepository, 'findById'>;
  creation: Pick<PipelineCreation, 'createForSchedule'>;
  pipelineRules: Pick<PipelinesService, 'refusalToCreate'>;
  /** between two sweeps (default 60) */
  everySeconds?: number;
  now?: () => Date;
}) {
  const everySeconds = deps.everySeconds ?? 60;
  const now = deps.now ?? (() => new Date());

  /** Schedules the next sweep unless one is pending or running (other than `current`, the sweep asking). */
  async function schedule(options: { current?: number; runAt?: Date } = {}): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SWEEP_LOCK]);
      const { rowCount } = await tx.query(`SELECT 1 FROM background_jobs WHERE queue = $1 AND state IN ('pending', 'running') AND id IS DISTINCT FROM $2`, [RUN_DUE_SCHEDULES_JOB, options.current ?? null]);
      if (rowCount === 0) await deps.queue.enqueue(RUN_DUE_SCHEDULES_JOB, {}, { tx, runAt: options.runAt });
    });
  }

  /** Claims every due schedule (see above) and enqueues its run; answers how many were claimed. */
  async function claimDue(): Promise<number> {
    if (!(await deps.schedules.anyDue())) return 0;
    return deps.db.transaction(async (tx) => {
      const due = await deps.schedules.claimDue(tx, BATCH);
      const from = now();
      for (const row of due) {
        // after the due time and after now: a schedule that was down for a while runs once, not once per missed time
        const after = row.next_run_at && row.next_run_at > from ? row.next_run_at : from;
        await deps.schedules.setNextRunAt(row.id, nextRunAt(row.cron, row.cron_timezone, after), tx);
        await deps.queue.enqueue(RUN_SCHEDULE_JOB, { scheduleId: row.id }, { tx });
      }
      return due.length;
    });
  }

  /** One run: the pipeline, or the recorded reason there is none. */
  async function run(payload: JobPayloadMap[typeof RUN_SCHEDULE_JOB]): Promise<void> {
    const scheduleRow = await deps.schedules.findById(payload.scheduleId);
    if (!scheduleRow) return;
    const project = await deps.projectRows.findById(scheduleRow.project_id);
    if (!project) return;
    const userId = payload.userId ?? scheduleRow.owner_id;
    const user = userId === null ? undefined : await deps.users.findById(userId);
    if (!user) return deps.schedules.recordSkip(scheduleRow.id, SKIP_REASONS.noOwner);
    const ref = splitRef(scheduleRow.ref);
    if (!ref) return deps.schedules.recordSkip(scheduleRow.id, SKIP_REASONS.invalidRef);
    const actor = actorFor(user, 'session');
    const refusal = await deps.pipelineRules.refusalToCreate(actor, project, ref.name, ref.tag);
    if (refusal) return deps.schedules.recordSkip(scheduleRow.id, refusal);
    const outcome = await deps.creation.createForSchedule({
      project,
      ref: ref.name,
      tag: ref.tag,
      source: 'schedule',
      actor,
      variables: await deps.schedules.variables(scheduleRow.id),
      pipelineScheduleId: scheduleRow.id,
    });
    await deps.schedules.recordSkip(scheduleRow.id, outcome && 'error' in outcome ? outcome.error.join(', ') : null);
  }

  return {
    schedule: () => schedule(),
    claimDue,
    run,
    /** The RUN_DUE_SCHEDULES_JOB handler: claims what is due, then schedules the next sweep. */
    async sweep(jobId: number): Promise<number> {
      const claimed = await claimDue();
      await schedule({ current: jobId, runAt: new Date(Date.now() + everySeconds * 1000) });
      return claimed;
    },
  };
}

export type PipelineScheduleRunner = ReturnType<typeof createPipelineScheduleRunner>;
