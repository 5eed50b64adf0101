/**
 * Merge trains as auto-merge sees them (its MergeTrainsPort, domains/auto-merge/): whether a
 * project runs trains, so its requests are offered the train strategies
 * (add_to_merge_train_when_checks_pass, merge_train); adding a request whose checks passed to
 * its train; and taking it off when its auto-merge is cancelled ('Remove from merge train').
 * Both run in auto-merge's transaction, through the same steps as the REST and GraphQL paths
 * (train-membership.ts). A removed car's pipeline is canceled once the removal commits, as
 * every removal from a train does: here by the pipelines' cancel job, enqueued in the removal's
 * transaction, since the caller owns that transaction.
 */
import type { MergeTrainCarRequest, MergeTrainsPort } from '../auto-merge/merge-trains-port.js';
import type { Queryable } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue.js';
import { squashOnMerge } from '../merge-requests/merging/merge-plan.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import { CANCEL_PIPELINE_JOB } from '../pipelines/pipeline-queue-jobs.js';
import { ACTIVE_STATUSES, mergeTrainsEnabled, ON_TRAIN_STATUSES } from './car.js';
import type { MergeTrainsRepository } from './merge-trains.repository.js';
import type { TrainMembership } from './train-membership.js';

export function createAutoMergeTrainsPort(deps: {
  cars: Pick<MergeTrainsRepository, 'carOf' | 'nameMergeUser'>;
  membership: TrainMembership;
  projects: Pick<ProjectsRepository, 'findById'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById'>;
  queue: Pick<JobQueue, 'enqueue'>;
}): MergeTrainsPort {
  const { cars } = deps;
  return {
    async enabled(projectId: number): Promise<boolean> {
      const project = await deps.projects.findById(projectId);
      return project !== undefined && mergeTrainsEnabled(project);
    },

    async carOf(mergeRequestId: number, tx?: Queryable) {
      const car = await cars.carOf(mergeRequestId, tx);
      return car && ON_TRAIN_STATUSES.includes(car.status) ? { userId: car.user_id } : null;
    },

    async add(request: MergeTrainCarRequest, tx: Queryable): Promise<void> {
      const existing = await cars.carOf(request.mergeRequestId, tx);
      if (existing && ON_TRAIN_STATUSES.includes(existing.status)) {
        // already a car (added through the API meanwhile): it keeps its place and its merge user
        await cars.nameMergeUser(request.mergeRequestId, existing.user_id, tx);
        return;
      }
      const project = await deps.projects.findById(request.projectId, tx);
      const mergeRequest = await deps.mergeRequests.findById(request.mergeRequestId, tx);
      if (!project || !mergeRequest) return;
      await deps.membership.board(
        {
          merge_request_id: request.mergeRequestId,
          user_id: request.userId,
          target_project_id: request.projectId,
          target_branch: request.targetBranch,
          // the squash chosen when auto-merge was set, within what the project allows
          squash: squashOnMerge(project.squash_option, request.squash ?? undefined, mergeRequest.squash),
          source_sha: request.sha,
          merge_commit_message: request.mergeCommitMessage,
          squash_commit_message: request.squashCommitMessage,
          should_remove_source_branch: request.shouldRemoveSourceBranch,
        },
        tx,
      );
    },

    async remove(mergeRequestId: number, userId: number, tx: Queryable): Promise<boolean> {
      const car = await cars.carOf(mergeRequestId, tx);
      if (!car || !ACTIVE_STATUSES.includes(car.status)) return false;
      if (!(await deps.membership.leave(car, userId, tx))) return false;
      if (car.pipeline_id !== null) await deps.queue.enqueue(CANCEL_PIPELINE_JOB, { pipelineId: car.pipeline_id }, { tx });
      return true;
    },
  };
}
