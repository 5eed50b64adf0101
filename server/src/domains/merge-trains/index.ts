/**
 * Merge trains (docs/merge-trains.md), built for the composition root (composition/merge-trains.ts):
 * the service callers use, the refresh job, and the reactions that enqueue it.
 *
 * What restarts or advances a train is heard in the transaction that causes it, so the refresh
 * job exists exactly when the change does: a train pipeline ending (a job listener), a push to a
 * target branch that has a train, a new version of a car's merge request (a push to its source
 * branch takes it off) and any event of one (closed, marked draft, merged).
 */
import type { Queryable } from '../../platform/db/database.js';
import type { DomainEvent } from '../../platform/events.js';
import type { JobListener, PipelineRow } from '../pipelines/pipeline.js';
import type { MergeTrainsRepository } from './merge-trains.repository.js';
import { isFinished, type TrainRefresh } from './train-refresh.js';

export { MERGE_TRAIN_REFRESH_JOB, MAX_PARALLEL, type TrainStep, type TrainStepHook } from './train-refresh.js';
export { createTrainRefresh, trainCrashHook, TRAIN_STEPS } from './train-refresh.js';
export { createMergeTrainsService, MERGE_TRAIN_MESSAGES, type MergeTrainsService } from './merge-trains.service.js';
export { createMergeTrainsRepository, type MergeTrainsRepository } from './merge-trains.repository.js';
export { trainMembership, type TrainMembership } from './train-membership.js';
export { createAutoMergeTrainsPort } from './auto-merge-port.js';
export { mergeTrainsEnabled, trainRefName, type Car, type CarStatus } from './car.js';

const TRAIN_REF = /^refs\/merge-requests\/\d+\/train$/;

/** Is this a merge train pipeline (GitLab's merge_train_pipeline?)? */
export const isMergeTrainPipeline = (pipeline: Pick<PipelineRow, 'merge_request_id' | 'ref'>) => pipeline.merge_request_id !== null && TRAIN_REF.test(pipeline.ref);

export function mergeTrainReactions(deps: { cars: MergeTrainsRepository; refresh: Pick<TrainRefresh, 'enqueueRefresh'> }) {
  const { cars, refresh } = deps;

  async function carOfRequest(mergeRequestId: number, tx: Queryable) {
    const car = await cars.carOf(mergeRequestId, tx);
    return car && ['idle', 'stale', 'fresh', 'merging'].includes(car.status) ? car : undefined;
  }

  /** A train pipeline that ended moves its train on. */
  const jobListener: JobListener = {
    async pipelineProcessed(pipeline, tx) {
      if (!isMergeTrainPipeline(pipeline) || !isFinished(pipeline.status)) return;
      const car = await cars.carOfPipeline(pipeline.id, tx);
      if (car) await refresh.enqueueRefresh(car, tx);
    },
  };

  return {
    jobListener,

    /** A push to a target branch with a train: every car checks its base (the train restarts when it moved). */
    async onPushed(event: DomainEvent<'repository.pushed'>, tx: Queryable): Promise<void> {
      for (const { ref } of event.payload.refs) {
        if (!ref.startsWith('refs/heads/')) continue;
        const targetBranch = ref.slice('refs/heads/'.length);
        if ((await cars.countOnTrain(event.payload.projectId, targetBranch, tx)) > 0) await refresh.enqueueRefresh({ target_project_id: event.payload.projectId, target_branch: targetBranch }, tx);
      }
    },

    /** A new version (a push to the source branch) or an event (closed, draft…) of a car's merge request. */
    async onMergeRequestChanged(event: DomainEvent<'merge_request.version_recorded' | 'merge_request.event_recorded'>, tx: Queryable): Promise<void> {
      const car = await carOfRequest(event.payload.mergeRequestId, tx);
      if (car) await refresh.enqueueRefresh(car, tx);
    },
  };
}
