import type { Queryable } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import type { JobListener } from './pipeline.js';

/**
 * Announces `pipeline.changed` once per processing, in the transaction of the change, with the
 * jobs that moved in it: open pages (GraphQL subscriptions) hear every job and pipeline
 * transition after it commits, in every process. The moved jobs are gathered per transaction
 * (`jobMoved` comes before the processing that ends each transition).
 */
export function createPipelineChangeAnnouncer(events: Pick<EventBus, 'publish'>): JobListener {
  const moved = new WeakMap<Queryable, Set<number>>();
  return {
    async jobMoved(job, tx) {
      let ids = moved.get(tx);
      if (!ids) moved.set(tx, (ids = new Set()));
      ids.add(job.id);
    },
    async pipelineProcessed(pipeline, tx) {
      const jobIds = [...(moved.get(tx) ?? [])];
      moved.delete(tx);
      await events.publish('pipeline.changed', { pipelineId: pipeline.id, projectId: pipeline.project_id, jobIds }, tx);
    },
  };
}
