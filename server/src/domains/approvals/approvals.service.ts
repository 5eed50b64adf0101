/**
 * Approving, unapproving and resetting approvals, and reading the approval state (GitLab's
 * MergeRequests::ApprovalService, RemoveApprovalService and the approvals API's rules).
 *
 * Every write locks the merge request's row first, so approvals of one request take turns:
 * twenty approvers at once leave twenty rows and every answer reads a state that includes its
 * own approval. The approval, the reviewer's state, the event (its system note) and the
 * `merge_request.changed` announcement commit together.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { verifyPassword } from '../../auth/passwords.js';
import { rawDiff } from '../../git/index.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { ConflictError, NotModifiedError, UnauthorizedError } from '../../platform/errors.js';
import type { Mergeability } from '../merge-requests/mergeability/index.js';
import type { MergeRequest, OpenedMergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { Project } from '../projects/project.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ApprovalLoader, LoadedApprovalState } from './approval-loader.js';
import { approvalEligibility, cannotApproveExplanation } from './approval-state.js';
import type { ApprovalsRepository } from './approvals.repository.js';

type Ref = [actor: Actor, idOrPath: string | number, iid: number];

/** The string the approval modal shows for a wrong password (the API answers GitLab's 401). */
export const APPROVAL_PASSWORD_INVALID = 'Approval password is invalid.';

/** The content of a version's diff, to tell a push that changed it from one that did not. */
export async function diffContentHash(repoPath: string, version: { base_commit_sha: string | null; start_commit_sha: string; head_commit_sha: string }): Promise<string | null> {
  try {
    const patch = await rawDiff(repoPath, version.base_commit_sha ?? version.start_commit_sha, version.head_commit_sha);
    return createHash('sha256').update(patch).digest('hex');
  } catch {
    // too large to read: treated as changed by every push
    return null;
  }
}

export interface ApprovalView extends LoadedApprovalState {
  opened: OpenedMergeRequest;
  viewerCanApprove: boolean;
  viewerApproved: boolean;
  /** "Why can't I approve?" */
  cannotApproveReason: string | null;
}

export function createApprovalsService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: ApprovalsRepository;
  loader: ApprovalLoader;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  mergeRequests: Pick<MergeRequestsRepository, 'recordEvent' | 'findById' | 'usersByIds'>;
  authorizer: Pick<Authorizer, 'can'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
  mergeability: Pick<Mergeability, 'publishChanged'>;
  /** may the viewer see this group? (rules naming groups they may not see show hidden groups) */
  groupVisible: (actor: Actor, groupId: number) => Promise<boolean>;
}) {
  const { repository } = deps;

  async function view(opened: OpenedMergeRequest, actor: Actor, tx?: Queryable): Promise<ApprovalView> {
    const viewerId = actor.user?.id ?? null;
    const loaded = await deps.loader.load(opened.project, opened.mergeRequest, { viewerId, visibleGroup: (id) => deps.groupVisible(actor, id), withCommitters: true, tx });
    const eligibility = approvalEligibility(viewerId, loaded.facts);
    const canApprove = eligibility.canApprove && opened.mergeRequest.state === 'opened' && opened.abilities.has('read_merge_request');
    return {
      ...loaded,
      opened,
      viewerCanApprove: canApprove,
      viewerApproved: viewerId !== null && loaded.facts.approverIds.includes(viewerId),
      cannotApproveReason: cannotApproveExplanation(eligibility.reason),
    };
  }


  async function announce(mergeRequest: MergeRequest, tx: Queryable): Promise<void> {
    await deps.mergeability.publishChanged([mergeRequest], tx);
  }

  /**
   * "Require user password to approve": the caller's own password, checked against its hash
   * (never logged, never stored); 401 when it is missing or wrong, as GitLab answers.
   */
  async function requirePassword(state: ApprovalView, userId: number, password: string | undefined): Promise<void> {
    if (!state.settings.requirePasswordToApprove) return;
    const valid = password !== undefined && password !== '' && (await verifyPassword(password, await repository.passwordHash(userId)));
    if (!valid) throw new UnauthorizedError();
  }

  return {
    view,

    /**
     * The password check of approve alone, for a review's Approve verdict: checked before the
     * review is published, so a wrong password publishes nothing (404 when the caller may not
     * see the merge request).
     */
    async checkApprovalPassword(ref: Ref, password: string | undefined): Promise<void> {
      const [actor] = ref;
      if (!actor.user) throw new UnauthorizedError();
      const state = await view(await deps.mergeRequestsService.open(...ref), actor);
      await requirePassword(state, actor.user.id, password);
    },

    /** The approval state as the caller sees it (404 when they may not see the merge request). */
    async state(...[actor, idOrPath, iid]: Ref): Promise<ApprovalView> {
      return view(await deps.mergeRequestsService.open(actor, idOrPath, iid), actor);
    },

    /**
     * POST …/approve: 409 when `sha` is not the head, 401 for a wrong password or someone who
     * may not approve, 304 when the caller has approved already.
     */
    async approve(ref: Ref, input: { sha?: string; approvalPassword?: string }): Promise<ApprovalView> {
      const [actor] = ref;
      if (!actor.user) throw new UnauthorizedError();
      const user = actor.user;
      const opened = await deps.mergeRequestsService.open(...ref);
      const { mergeRequest } = opened;
      if (input.sha !== undefined && input.sha !== mergeRequest.head_commit_sha) {
        throw new ConflictError(`SHA does not match HEAD of source branch: ${mergeRequest.head_commit_sha ?? ''}`);
      }
      const before = await view(opened, actor);
      if (before.viewerApproved) throw new NotModifiedError();
      await requirePassword(before, user.id, input.approvalPassword);
      if (!before.viewerCanApprove) throw new UnauthorizedError();
      const [latest] = await repository.latestVersions(mergeRequest.id);
      const contentHash = latest ? await diffContentHash(deps.storage.pathFor(mergeRequest.target_project_id), latest) : null;
      const inserted = await deps.db.transaction(async (tx) => {
        await repository.lockMergeRequest(mergeRequest.id, tx);
        if (!(await repository.insertApproval(mergeRequest.id, user.id, mergeRequest.head_commit_sha, contentHash, tx))) return false;
        await repository.setReviewerState(mergeRequest.id, user.id, 'approved', tx);
        await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, 'approved', {}, tx);
        await announce(mergeRequest, tx);
        return true;
      });
      if (!inserted) throw new NotModifiedError();
      return view(opened, actor);
    },

    /** POST …/unapprove: 304 when the caller had not approved. */
    async unapprove(ref: Ref): Promise<ApprovalView> {
      const [actor] = ref;
      if (!actor.user) throw new UnauthorizedError();
      const user = actor.user;
      const opened = await deps.mergeRequestsService.open(...ref);
      const { mergeRequest } = opened;
      const removed = await deps.db.transaction(async (tx) => {
        await repository.lockMergeRequest(mergeRequest.id, tx);
        if (!(await repository.deleteApproval(mergeRequest.id, user.id, tx))) return false;
        await repository.setReviewerState(mergeRequest.id, user.id, 'unreviewed', tx);
        await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, 'unapproved', {}, tx);
        await announce(mergeRequest, tx);
        return true;
      });
      if (!removed) throw new NotModifiedError();
      return view(opened, actor);
    },

    /**
     * PUT …/reset_approvals (202). GitLab lets only bot users with the right to reset call it;
     * Tributary has no bot users, so it is Maintainers' (who may change the project's rules).
     */
    async resetApprovals(ref: Ref): Promise<void> {
      const [actor] = ref;
      if (!actor.user) throw new UnauthorizedError();
      const opened = await deps.mergeRequestsService.open(...ref);
      if (!(await deps.authorizer.can(actor, 'admin_merge_request_approvals', { project: opened.project }))) throw new UnauthorizedError();
      const { mergeRequest } = opened;
      await deps.db.transaction(async (tx) => {
        await repository.lockMergeRequest(mergeRequest.id, tx);
        const removed = await repository.deleteApprovals(mergeRequest.id, undefined, tx);
        if (removed.length === 0) return;
        for (const userId of removed) await repository.setReviewerState(mergeRequest.id, userId, 'unapproved', tx);
        await deps.mergeRequests.recordEvent(mergeRequest.id, actor.user!.id, 'approvals_reset', { from: await repository.usernames(removed, tx) }, tx);
        await announce(mergeRequest, tx);
      });
    },

    /** The project's effective approval settings (after the instance's and groups' locks). */
    async settingsOf(project: Project) {
      return (await deps.loader.settingsOf(project)).settings;
    },

    /** Is `project` one whose approval settings `actor` may change? */
    async canAdmin(actor: Actor, project: Project): Promise<boolean> {
      return deps.authorizer.can(actor, 'admin_merge_request_approvals', { project });
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
