/**
 * Making a job ready to run when it may belong to a resource group (GitLab's
 * waiting_for_resource): the job waits for the group's resource, or takes it at once.
 */
import type { Queryable } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { transition } from './engine/status.js';
import type { MoveJob } from './job-move.js';
import type { JobRow } from './pipeline.js';
import { ASSIGN_RESOURCE_JOB } from './pipeline-queue-jobs.js';
import type { JobChanges } from './pipelines.repository.js';
import type { ResourceGroupsRepository } from './resource-groups.repository.js';

export function createResourceGroupEnqueue(deps: { move: MoveJob; resourceGroups: Pick<ResourceGroupsRepository, 'take'>; queue: Pick<JobQueue, 'enqueue'> }) {
  const move = deps.move;

  /**
   * Makes a job ready to run (`enqueue` or `enqueue_scheduled`). A job of a resource group waits
   * for the group's resource first (GitLab's waiting_for_resource) and takes it at once when it is
   * free; otherwise an assignment job looks again once this transaction is committed, so a
   * resource given back meanwhile is not missed.
   */
  return async function enqueue(job: JobRow, event: 'enqueue' | 'enqueue_scheduled', tx: Queryable, extra: JobChanges = {}): Promise<JobRow | null> {
    if (job.resource_group_key === null || transition(job.status, event) === null) return move(job, event, tx, extra);
    const waiting = await move(job, 'wait_for_resource', tx, extra);
    if (!waiting) return null;
    if (await deps.resourceGroups.take(job.project_id, job.resource_group_key, job.id, tx)) return move(waiting, 'enqueue_waiting_for_resource', tx);
    await deps.queue.enqueue(ASSIGN_RESOURCE_JOB, { projectId: job.project_id, key: job.resource_group_key }, { tx });
    return waiting;
  };
}
