/**
 * `PUT /projects/:id/merge_requests/:iid/rebase` (lib/api/merge_requests.rb,
 * MergeRequests::RebaseService): checks that the caller may push to the source branch, sets
 * rebase_in_progress and enqueues the job in one transaction, answers 202. The job replays
 * the source commits onto the target tip with plumbing in the source repository (rebase-git.ts)
 * and moves the source branch by compare-and-swap; the push it records makes a new version.
 * Any failure leaves the branch as it was, clears the flag and sets merge_error to 'Rebase
 * failed. Please rebase locally'.
 */
import { t } from '@tributary/contracts';
import type { Database } from '../../../platform/db/database.js';
import type { EventBus } from '../../../platform/events.js';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../../../platform/errors.js';
import type { Logger } from '../../../platform/logger.js';
import type { JobPayloadMap, JobQueue, JobRow } from '../../../platform/queue.js';
import type { Actor } from '../../../auth/actor.js';
import type { Authorizer } from '../../../auth/authorizer.js';
import { fetchCommit, readRef, RefConflictError, updateRef } from '../../../git/index.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { RepositoryStorage } from '../../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../../protected-branches/protected-branches.repository.js';
import { checkBranchUpdate, protectionsFor } from '../../protected-branches/push-rules.js';
import type { PushesService } from '../../pushes/pushes.service.js';
import type { MergeRequestVersions } from '../merge-request-versions.service.js';
import type { MergeRequestsRepository } from '../merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests.service.js';
import type { Collaboration } from '../collaboration.service.js';
import { REBASE_MESSAGES } from './merge-messages.js';
import type { MergingRepository } from './merging.repository.js';
import { replayCommits } from './rebase-git.js';

export const REBASE_JOB = 'merge_requests.rebase' satisfies keyof JobPayloadMap;
/** A rebase that keeps failing for unexpected reasons gives up after this many tries. */
const REBASE_ATTEMPTS = 3;

export interface RebasePayload {
  mergeRequestId: number;
  userId: number;
  /** accepted for GitLab compatibility; pipelines arrive with a later issue */
  skipCi: boolean;
}

const forbidden = (reason: string) => new ForbiddenError(`403 Forbidden - ${t(reason)}`);

export function createRebaseService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: MergingRepository;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  mergeRequests: Pick<MergeRequestsRepository, 'findById' | 'usersByIds'>;
  projects: Pick<ProjectsRepository, 'findById'>;
  authorizer: Pick<Authorizer, 'can' | 'accessLevel'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  pushes: Pick<PushesService, 'postReceive'>;
  versions: Pick<MergeRequestVersions, 'recordOrSchedule'>;
  queue: Pick<JobQueue, 'enqueue'>;
  events: Pick<EventBus, 'publish'>;
  logger: Pick<Logger, 'warn'>;
  /** a target's mergers may rebase a fork's branch whose merge request allows collaboration */
  collaboration?: Pick<Collaboration, 'branchesFor'>;
}) {
  const { repository, storage } = deps;
  const tip = async (repo: string, branch: string) => (await readRef(repo, `refs/heads/${branch}`))?.target ?? null;

  async function finish(mergeRequestId: number, projectId: number, error: string | null): Promise<void> {
    await repository.finishRebase(mergeRequestId, error === null ? null : t(error));
    await deps.events.publish('merge_request.changed', { mergeRequestId, projectId });
  }

  /** The replay and the compare-and-swap; returns the failure to report, or null. */
  async function rebase(payload: RebasePayload): Promise<string | null> {
    const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
    if (!mergeRequest || mergeRequest.state !== 'opened' || mergeRequest.source_project_id === null) return REBASE_MESSAGES.failed;
    const user = (await deps.mergeRequests.usersByIds([payload.userId])).get(payload.userId);
    if (!user || user.state !== 'active') return REBASE_MESSAGES.failed;
    const sourceRepo = storage.pathFor(mergeRequest.source_project_id);
    const targetRepo = storage.pathFor(mergeRequest.target_project_id);
    const [source, target] = await Promise.all([tip(sourceRepo, mergeRequest.source_branch), tip(targetRepo, mergeRequest.target_branch)]);
    if (!source || !target) return REBASE_MESSAGES.failed;
    // A fork replays in its own repository, which first needs the target's commits.
    if (sourceRepo !== targetRepo) await fetchCommit(sourceRepo, targetRepo, target);

    const result = await replayCommits(sourceRepo, { onto: target, head: source, committer: { name: user.name, email: user.email } });
    if (result.kind === 'conflict') return REBASE_MESSAGES.failed;
    if (result.kind === 'up-to-date') {
      // Nothing to replay; a rebase interrupted after its branch move still needs its version.
      if (mergeRequest.head_commit_sha !== source) await deps.versions.recordOrSchedule(mergeRequest);
      return null;
    }
    const ref = `refs/heads/${mergeRequest.source_branch}`;
    try {
      await updateRef(sourceRepo, ref, result.head, source);
    } catch (error) {
      if (error instanceof RefConflictError) return REBASE_MESSAGES.failed; // pushed to meanwhile: keep that push
      throw error;
    }
    await deps.pushes.postReceive(user.id, mergeRequest.source_project_id, [{ ref, oldSha: source, newSha: result.head }]);
    return null;
  }

  return {
    /** 202 `{rebase_in_progress: true}`; 403 when the caller may not push to the source branch, 409 when one is running. */
    async schedule(actor: Actor, idOrPath: string | number, iid: number, options: { skipCi: boolean }): Promise<{ rebase_in_progress: boolean }> {
      const user = actor.user;
      if (!user) throw new UnauthorizedError();
      const { mergeRequest } = await deps.mergeRequestsService.open(actor, idOrPath, iid);
      const source = mergeRequest.source_project_id === null ? undefined : await deps.projects.findById(mergeRequest.source_project_id);
      if (!source || !(await tip(storage.pathFor(source.id), mergeRequest.source_branch))) throw forbidden(REBASE_MESSAGES.sourceMissing);
      const protections = await deps.protectedBranches.listForProject(source.id);
      const mayPush = await deps.authorizer.can(actor, 'push_code', { project: source });
      const accessLevel = mayPush ? await deps.authorizer.accessLevel(actor, { project: source }) : 0;
      const collaborationBranches = !mayPush && deps.collaboration ? await deps.collaboration.branchesFor(actor, source) : [];
      const pusher = { userId: user.id, isAdmin: user.is_admin, accessLevel, collaborationBranches };
      if (accessLevel === 0 && !user.is_admin && collaborationBranches.length === 0) throw forbidden(REBASE_MESSAGES.cannotPush);
      if (checkBranchUpdate(pusher, { branch: mergeRequest.source_branch, creating: false, deleting: false, forced: false }, protections) !== null) throw forbidden(REBASE_MESSAGES.cannotPush);
      const matching = protectionsFor(mergeRequest.source_branch, protections);
      if (matching.length > 0 && !matching.some((protection) => protection.allow_force_push)) throw forbidden(REBASE_MESSAGES.protectedFromForcePush);

      const payload: RebasePayload = { mergeRequestId: mergeRequest.id, userId: user.id, skipCi: options.skipCi };
      await deps.db.transaction(async (tx) => {
        if (!(await repository.startRebase(mergeRequest.id, tx))) throw new ConflictError(t(REBASE_MESSAGES.lock));
        await deps.queue.enqueue(REBASE_JOB, { ...payload }, { tx, maxAttempts: REBASE_ATTEMPTS });
        await deps.events.publish('merge_request.changed', { mergeRequestId: mergeRequest.id, projectId: mergeRequest.target_project_id }, tx);
      });
      return { rebase_in_progress: true };
    },

    /** The REBASE_JOB handler. Unexpected errors retry the job; the last attempt reports the failure. */
    async run(payload: RebasePayload, job: Pick<JobRow, 'attempts' | 'max_attempts'>): Promise<void> {
      const mergeRequest = await deps.mergeRequests.findById(payload.mergeRequestId);
      if (!mergeRequest) return;
      let failure: string | null;
      try {
        failure = await rebase(payload);
      } catch (error) {
        if (job.attempts < job.max_attempts) throw error;
        deps.logger.warn({ err: error, mergeRequestId: payload.mergeRequestId }, 'rebase failed');
        failure = REBASE_MESSAGES.failed;
      }
      await finish(mergeRequest.id, mergeRequest.target_project_id, failure);
    },
  };
}

export type RebaseService = ReturnType<typeof createRebaseService>;
