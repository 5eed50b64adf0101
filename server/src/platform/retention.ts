import type { Database } from './db/database.js';
import type { JobQueue } from './queue.js';

/**
 * The retention job: finished jobs and old domain events are deleted, so neither table grows
 * for ever. Events are read right after they are written (reactions run in their transaction,
 * subscribers read the row when the notification arrives), so a month is generous; failed jobs
 * are kept longer than done ones, for whoever looks into them.
 *
 * One `platform.prune` job is pending at a time: a server start schedules it when none is, and
 * each run schedules the next, under an advisory lock so that processes starting together
 * schedule it once.
 */
export const PRUNE_JOB = 'platform.prune';

export interface RetentionPolicy {
  doneJobsDays: number;
  failedJobsDays: number;
  eventsDays: number;
  /** between two runs */
  everySeconds: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { doneJobsDays: 7, failedJobsDays: 30, eventsDays: 30, everySeconds: 3600 };

/** Rows deleted per statement: short transactions, however much has piled up. */
const BATCH = 5_000;
/** pg_advisory_xact_lock key of the scheduling step (any constant unique among this program's locks). */
const SCHEDULE_LOCK = 7_314_402;

export function createRetention(deps: { db: Pick<Database, 'query' | 'transaction'>; queue: Pick<JobQueue, 'enqueue'>; policy?: Partial<RetentionPolicy> }) {
  const policy = { ...DEFAULT_RETENTION, ...deps.policy };

  async function deleteInBatches(sql: string, days: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { rowCount } = await deps.db.query(sql, [days, BATCH]);
      total += rowCount;
      if (rowCount < BATCH) return total;
    }
  }

  /** Schedules the next run unless one is pending or running (other than `current`, the run asking). */
  async function schedule(options: { current?: number; runAt?: Date } = {}): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEDULE_LOCK]);
      const { rowCount } = await tx.query(`SELECT 1 FROM background_jobs WHERE queue = $1 AND state IN ('pending', 'running') AND id IS DISTINCT FROM $2`, [PRUNE_JOB, options.current ?? null]);
      if (rowCount === 0) await deps.queue.enqueue(PRUNE_JOB, {}, { tx, runAt: options.runAt });
    });
  }

  return {
    schedule: () => schedule(),

    /** The PRUNE_JOB handler: deletes what is past its retention, then schedules the next run. */
    async run(jobId: number): Promise<{ jobs: number; events: number }> {
      const jobs =
        (await deleteInBatches(
          `DELETE FROM background_jobs WHERE id IN (
             SELECT id FROM background_jobs WHERE state = 'done' AND finished_at < now() - make_interval(days => $1) LIMIT $2)`,
          policy.doneJobsDays,
        )) +
        (await deleteInBatches(
          `DELETE FROM background_jobs WHERE id IN (
             SELECT id FROM background_jobs WHERE state = 'failed' AND finished_at < now() - make_interval(days => $1) LIMIT $2)`,
          policy.failedJobsDays,
        ));
      const events = await deleteInBatches(
        `DELETE FROM domain_events WHERE id IN (
           SELECT id FROM domain_events WHERE created_at < now() - make_interval(days => $1) ORDER BY id LIMIT $2)`,
        policy.eventsDays,
      );
      await schedule({ current: jobId, runAt: new Date(Date.now() + policy.everySeconds * 1000) });
      return { jobs, events };
    },
  };
}

export type Retention = ReturnType<typeof createRetention>;
