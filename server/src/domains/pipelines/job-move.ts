/**
 * One job's transition by compare-and-swap on its status, with the follow-up work it causes in
 * the same transaction: a scheduled job's timer, a trigger job's downstream pipeline, a
 * completed job's resource given back, and the listeners (live pages).
 */
import type { Queryable } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { isCompleted, sourcesOf, transition, type JobEvent, type Status } from './engine/status.js';
import type { JobListener, JobRow } from './pipeline.js';
import { ASSIGN_RESOURCE_JOB, CREATE_DOWNSTREAM_JOB, ENQUEUE_SCHEDULED_JOB } from './pipeline-queue-jobs.js';
import type { JobChanges, PipelinesRepository } from './pipelines.repository.js';
import type { ResourceGroupsRepository } from './resource-groups.repository.js';

export interface JobMoveDeps {
  pipelines: Pick<PipelinesRepository, 'casJobStatus' | 'casJobsStatus'>;
  resourceGroups: Pick<ResourceGroupsRepository, 'release'>;
  queue: Pick<JobQueue, 'enqueue'>;
  now: () => Date;
  listeners?: readonly JobListener[];
}

/** Timestamps a transition into `to` writes. */
export function changesFor(to: Status, at: Date): JobChanges {
  if (to === 'pending') return { queued_at: at };
  if (to === 'running') return { started_at: at };
  if (to === 'success' || to === 'failed' || to === 'canceled') return { finished_at: at };
  return {};
}

export type MoveJob = (job: Pick<JobRow, 'id' | 'status'>, event: JobEvent, tx: Queryable, extra?: JobChanges) => Promise<JobRow | null>;

export function createJobMove(deps: JobMoveDeps): MoveJob {
  const now = deps.now;
  const repo = deps.pipelines;

  /** Applies `event` to one job by compare-and-swap; null when its status no longer allows it. */
  return async function move(job: Pick<JobRow, 'id' | 'status'>, event: JobEvent, tx: Queryable, extra: JobChanges = {}): Promise<JobRow | null> {
    const to = transition(job.status, event);
    if (!to) return null;
    const at = now();
    const moved = await repo.casJobStatus(job.id, sourcesOf(event), to, { ...changesFor(to, at), ...extra }, tx);
    if (moved && to === 'scheduled' && moved.scheduled_at) {
      await deps.queue.enqueue(ENQUEUE_SCHEDULED_JOB, { jobId: moved.id }, { runAt: moved.scheduled_at, tx });
    }
    if (moved && to === 'pending' && moved.type === 'bridge') await deps.queue.enqueue(CREATE_DOWNSTREAM_JOB, { bridgeId: moved.id }, { tx });
    // A completed job gives its resource back in its own transition; the next waiting job takes it.
    if (moved && isCompleted(to) && moved.resource_group_key !== null) {
      const released = await deps.resourceGroups.release(moved.id, tx);
      if (released) await deps.queue.enqueue(ASSIGN_RESOURCE_JOB, { projectId: released.project_id, key: released.key }, { tx });
    }
    if (moved) for (const listener of deps.listeners ?? []) await listener.jobMoved?.(moved, tx);
    return moved;
  };
}
