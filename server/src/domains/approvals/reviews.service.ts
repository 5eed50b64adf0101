/**
 * Reviewers' review states (GitLab's MergeRequestReviewer: unreviewed, shown as "requested";
 * reviewed; requested_changes; approved; unapproved). Approving sets 'approved'; a reviewer who
 * requests changes blocks the merge (REQUESTED_CHANGES) until they approve or are removed.
 * Submitting a review carries the reviewer's verdict, as GitLab's review drawer does.
 */
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, NotModifiedError, UnauthorizedError } from '../../platform/errors.js';
import type { Mergeability } from '../merge-requests/mergeability/index.js';
import type { OpenedMergeRequest } from '../merge-requests/merge-request.js';
import type { MergeRequestsRepository } from '../merge-requests/merge-requests.repository.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { User } from '../users/user.js';
import type { ReviewerState } from './approval-rule.js';
import type { ApprovalsRepository } from './approvals.repository.js';
import type { ApprovalsService } from './approvals.service.js';

type Ref = [actor: Actor, idOrPath: string | number, iid: number];

export type ReviewVerdict = 'reviewed' | 'requested_changes' | 'approved';

export function createReviewsService(deps: {
  db: Pick<Database, 'transaction'>;
  repository: ApprovalsRepository;
  approvals: Pick<ApprovalsService, 'approve' | 'checkApprovalPassword'>;
  mergeRequestsService: Pick<MergeRequestsService, 'open'>;
  mergeRequests: Pick<MergeRequestsRepository, 'recordEvent' | 'usersByIds'>;
  mergeability: Pick<Mergeability, 'publishChanged'>;
}) {
  const { repository } = deps;

  return {
    /** GET …/reviewers: each reviewer with their state, in the order they were asked. */
    async reviewers(...ref: Ref): Promise<{ opened: OpenedMergeRequest; reviewers: Array<{ user: User; state: ReviewerState; created_at: Date }> }> {
      const opened = await deps.mergeRequestsService.open(...ref);
      const states = (await repository.reviewerStates([opened.mergeRequest.id])).get(opened.mergeRequest.id) ?? [];
      const users = await deps.mergeRequests.usersByIds(states.map((state) => state.user_id));
      const reviewers = states.flatMap((state) => {
        const user = users.get(state.user_id);
        return user ? [{ user, state: state.state, created_at: state.created_at }] : [];
      });
      return { opened, reviewers };
    },

    /**
     * What must hold before a review carrying `verdict` is published: an Approve verdict on a
     * project that requires the password needs the right one (401), so a review published with
     * a wrong password does not half-happen.
     */
    async precheck(ref: Ref, verdict: ReviewVerdict, options: { approvalPassword?: string } = {}): Promise<void> {
      if (verdict === 'approved') await deps.approvals.checkApprovalPassword(ref, options.approvalPassword);
    },

    /**
     * A reviewer's verdict with their review: 'approved' approves (the approval rules apply),
     * 'requested_changes' withdraws their approval and blocks the merge, 'reviewed' records it.
     */
    async submit(ref: Ref, verdict: ReviewVerdict, options: { approvalPassword?: string } = {}): Promise<void> {
      const [actor] = ref;
      if (!actor.user) throw new UnauthorizedError();
      const user = actor.user;
      if (verdict === 'approved') {
        await deps.approvals.approve(ref, { approvalPassword: options.approvalPassword }).catch((error: unknown) => {
          if (!(error instanceof NotModifiedError)) throw error;
        });
        return;
      }
      const opened = await deps.mergeRequestsService.open(...ref);
      const { mergeRequest } = opened;
      const isReviewer = ((await repository.reviewerStates([mergeRequest.id])).get(mergeRequest.id) ?? []).some((reviewer) => reviewer.user_id === user.id);
      // GitLab: only reviewers with the right to approve record a verdict
      if (!isReviewer || !opened.abilities.has('approve_merge_request')) throw new ForbiddenError();
      await deps.db.transaction(async (tx) => {
        await repository.lockMergeRequest(mergeRequest.id, tx);
        if (verdict === 'requested_changes' && (await repository.deleteApproval(mergeRequest.id, user.id, tx))) {
          await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, 'unapproved', {}, tx);
        }
        await repository.setReviewerState(mergeRequest.id, user.id, verdict, tx);
        await deps.mergeRequests.recordEvent(mergeRequest.id, user.id, verdict, {}, tx);
        await deps.mergeability.publishChanged([mergeRequest], tx);
      });
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
