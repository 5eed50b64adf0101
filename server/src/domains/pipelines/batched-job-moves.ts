/**
 * Many jobs moved by the same event in one compare-and-swap statement: a 500-job pipeline's first
 * processing is a few round trips, not one per job.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { sourcesOf, transition, type JobEvent, type Status } from './engine/status.js';
import { changesFor } from './job-move.js';
import type { JobListener, JobRow } from './pipeline.js';
import { CREATE_DOWNSTREAM_JOB } from './pipeline-queue-jobs.js';
import type { PipelinesRepository } from './pipelines.repository.js';

export function createBatchedJobMoves(deps: {
  pipelines: Pick<PipelinesRepository, 'casJobsStatus'>;
  queue: Pick<JobQueue, 'enqueue'>;
  now: () => Date;
  listeners?: readonly JobListener[];
}) {
  const now = deps.now;
  const repo = deps.pipelines;

  /** `move` for many jobs with the same event (no per-job columns): one compare-and-swap statement. */
  return async function moveMany(ids: readonly number[], byId: ReadonlyMap<number, JobRow>, event: JobEvent, tx: Queryable): Promise<void> {
    const targets = new Map<Status, number[]>();
    for (const id of ids) {
      const to = transition(byId.get(id)!.status, event);
      if (to) targets.set(to, [...(targets.get(to) ?? []), id]);
    }
    for (const [to, group] of targets) {
      const changes = changesFor(to, now());
      const moved = await repo.casJobsStatus(group, sourcesOf(event), to, changes.queued_at ? { queued_at: changes.queued_at } : {}, tx);
      for (const job of moved) {
        // as in `move`: a bridge that becomes pending creates its downstream pipeline
        if (to === 'pending' && job.type === 'bridge') await deps.queue.enqueue(CREATE_DOWNSTREAM_JOB, { bridgeId: job.id }, { tx });
        for (const listener of deps.listeners ?? []) await listener.jobMoved?.(job, tx);
      }
    }
  };
}
