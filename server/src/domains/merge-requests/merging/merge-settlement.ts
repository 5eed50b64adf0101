/**
 * Finishing a merge once the target branch holds it, and reconciling intents a crash left
 * behind. Shared by the merge itself (the normal path) and by the start-up reconciliation:
 * both end in the same idempotent step, so whichever runs first wins and the other sees
 * nothing left to do.
 *
 *   finalize   (one transaction)  intent → done, request merged, `merged` event,
 *                                 merge_request.changed, and the post-merge job enqueued
 *   post-merge (POST_MERGE_JOB)   push event for the target branch (repository.pushed, so other
 *                                 requests into it recheck), source branch deletion, post_merge_done
 *
 * The post-merge job is enqueued in the finalize transaction, so it exists exactly when the
 * request is merged, and runs at least once (the queue's lease retries it after a crash; a
 * duplicate push event is harmless and deletion is a compare-and-swap). GitLab also deletes the
 * source branch and processes the push in workers after the merge answers.
 */
import type { Database, Queryable } from '../../../platform/db/database.js';
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';
import type { JobPayloadMap, JobQueue } from '../../../platform/queue.js';
import { actorFor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { deleteRef, isAncestor, readRef, RefConflictError } from '../../../git/index.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../../protected-branches/protected-branches.repository.js';
import { protectionsFor } from '../../protected-branches/push-rules.js';
import type { PushesService } from '../../pushes/pushes.service.js';
import { ZERO_SHA } from '../../pushes/push.js';
import type { MergeRequest } from '../merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import { isUnfinished, reconcileAction } from './merge-intent.js';
import type { MergeIntent, MergingRepository } from './merging.repository.js';

export interface MergeSettlementDeps {
  db: Pick<Database, 'transaction'>;
  repository: MergingRepository;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'recordEvent' | 'usersByIds'>;
  projects: Pick<ProjectsRepository, 'findById'>;
  authorizer: Pick<Authorizer, 'can'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  pushes: Pick<PushesService, 'postReceive'>;
  events: Pick<EventBus, 'publish'>;
  queue: Pick<JobQueue, 'enqueue'>;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/** Runs the after-merge steps of one merged intent. */
export const POST_MERGE_JOB = 'merge_requests.post_merge' satisfies keyof JobPayloadMap;

export function createMergeSettlement(deps: MergeSettlementDeps) {
  const { repository } = deps;
  const changed = (intent: Pick<MergeIntent, 'merge_request_id' | 'project_id'>, tx?: Queryable) =>
    deps.events.publish('merge_request.changed', { mergeRequestId: intent.merge_request_id, projectId: intent.project_id }, tx);

  /** Does the target branch contain the commit the intent meant to put there? */
  async function targetContains(intent: MergeIntent): Promise<boolean> {
    const repo = deps.storage.pathFor(intent.project_id);
    const tip = await readRef(repo, `refs/heads/${intent.target_branch}`).catch(() => null);
    if (!tip) return false;
    if (tip.target === intent.new_sha) return true;
    return isAncestor(repo, intent.new_sha, tip.target).catch(() => false);
  }

  /** In the caller's transaction: the intent becomes done and the request merged, once. */
  async function finalizeIn(intent: MergeIntent, tx: Queryable): Promise<boolean> {
    if (!(await repository.transition(intent.id, ['pending', 'ref_moved'], 'done', tx))) return false;
    await repository.markMerged(intent, tx);
    await deps.mergeRequests.recordEvent(intent.merge_request_id, intent.user_id, 'merged', {}, tx);
    await changed(intent, tx);
    await deps.queue.enqueue(POST_MERGE_JOB, { intentId: intent.id }, { tx });
    return true;
  }

  /** GitLab's can_remove_source_branch?: unprotected, not the default, pushable, and still at the merged head. */
  async function deleteSourceBranch(mergeRequest: MergeRequest, intent: MergeIntent): Promise<void> {
    if (intent.delete_source_branch_as === null || mergeRequest.source_project_id === null) return;
    const [source, users] = await Promise.all([deps.projects.findById(mergeRequest.source_project_id), deps.mergeRequests.usersByIds([intent.delete_source_branch_as])]);
    const user = users.get(intent.delete_source_branch_as);
    if (!source || !user || user.state !== 'active' || source.default_branch === mergeRequest.source_branch) return;
    const protections = await deps.protectedBranches.listForProject(source.id);
    if (protectionsFor(mergeRequest.source_branch, protections).length > 0) return;
    if (!(await deps.authorizer.can(actorFor(user, 'session'), 'push_code', { project: source }))) return;
    const ref = `refs/heads/${mergeRequest.source_branch}`;
    try {
      // Compare-and-swap: a branch pushed to since the merge keeps its new commits.
      await deleteRef(deps.storage.pathFor(source.id), ref, intent.source_sha);
    } catch (error) {
      if (error instanceof RefConflictError) return;
      throw error;
    }
    await deps.pushes.postReceive(user.id, source.id, [{ ref, oldSha: intent.source_sha, newSha: ZERO_SHA }]);
  }

  async function postMerge(intent: MergeIntent): Promise<void> {
    const mergeRequest = await deps.mergeRequests.findById(intent.merge_request_id);
    if (mergeRequest && intent.user_id !== null) {
      const ref = `refs/heads/${intent.target_branch}`;
      await deps.pushes.postReceive(intent.user_id, intent.project_id, [{ ref, oldSha: intent.expected_old_sha, newSha: intent.new_sha }]);
    }
    if (mergeRequest) await deleteSourceBranch(mergeRequest, intent);
    await repository.markPostMergeDone(intent.id);
    if (mergeRequest) await changed(intent);
  }

  /**
   * Brings one intent to a final state from the repository's truth: finalized when the target
   * contains its commit, failed otherwise (the request stays open and can be merged again).
   * `skipLocked` leaves alone an intent whose merge is still running in a live process.
   */
  async function settle(intentId: number, options: { skipLocked?: boolean } = {}): Promise<MergeIntent | undefined> {
    const settled = await deps.db.transaction(async (tx) => {
      const intent = await repository.lockIntent(intentId, tx, options);
      if (!intent || !isUnfinished(intent.state)) return intent;
      const decision = reconcileAction(intent, await targetContains(intent));
      if (decision.action === 'finalize') {
        await finalizeIn(intent, tx);
        return { ...intent, state: 'done' as const };
      }
      if (decision.action === 'fail') {
        await repository.transition(intent.id, ['pending', 'ref_moved'], 'failed', tx, decision.reason);
        await changed(intent, tx);
        return { ...intent, state: 'failed' as const };
      }
      return intent;
    });
    return settled;
  }

  return {
    finalizeIn,
    settle,

    /** The POST_MERGE_JOB handler; a failure retries the job. */
    async runPostMergeJob(payload: { intentId: number }): Promise<void> {
      const intent = await repository.findIntent(payload.intentId);
      if (intent?.state === 'done' && !intent.post_merge_done) await postMerge(intent);
    },

    /** On start: every intent a crash left unfinished. */
    async reconcileAll(): Promise<{ finalized: number; failed: number }> {
      let finalized = 0;
      let failed = 0;
      for (const intent of await repository.toReconcile()) {
        const after = await settle(intent.id, { skipLocked: true });
        if (after?.state === 'done') finalized++;
        if (after?.state === 'failed') failed++;
      }
      if (finalized + failed > 0) deps.logger.info({ finalized, failed }, 'reconciled interrupted merges');
      return { finalized, failed };
    },
  };
}

export type MergeSettlement = ReturnType<typeof createMergeSettlement>;
