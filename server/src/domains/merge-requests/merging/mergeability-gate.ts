/**
 * The one place merging asks whether a merge request may be merged: the mergeability
 * module's checks (mergeability.evaluate, ../mergeability/), fed the git facts the merge just
 * measured against the exact target tip it builds on instead of the stored trial merge
 * (GitLab's merge also rechecks mergeability synchronously), so a stale cached merge_status
 * never decides and every check (draft, title regex, blockers, threads…) applies. Pure helpers;
 * the service makes the call.
 */
import type { DetailedMergeStatus } from '@tributary/contracts';
import type { FreshGitFacts } from '../mergeability/index.js';
import type { MergeRequest } from '../merge-request.js';

/** What the merge measured with git just now. */
export interface LiveFacts {
  sourceExists: boolean;
  targetExists: boolean;
  conflict: boolean;
  needRebase: boolean;
}

/** The live facts in the checks' terms. NEED_REBASE only asks whether commits are missing, not how many. */
export function freshGitFacts(live: LiveFacts): FreshGitFacts {
  return {
    sourceBranchExists: live.sourceExists,
    // nothing to merge into is GitLab's "cannot be merged" (its broken? state)
    mergeStatus: live.targetExists && !live.conflict ? 'can_be_merged' : 'cannot_be_merged',
    divergedCommitsCount: live.needRebase ? 1 : 0,
  };
}

/** null when the request may be merged now, else the detailed status that blocks it. */
export function blockerOf(status: DetailedMergeStatus): DetailedMergeStatus | null {
  return status === 'MERGEABLE' ? null : status;
}

/**
 * The merge found a conflict the stored checks did not see: they said "can be merged" for the
 * head being merged, against a target tip that moved since without a push event (so nothing
 * rechecked). GitLab's mergeable? trusts that stored verdict, and the merge itself then fails:
 * 422 with merge_error rather than a 405 refusal.
 */
export function targetConflictUnseen(blocker: DetailedMergeStatus, live: Pick<LiveFacts, 'targetExists' | 'conflict'>, mergeRequest: Pick<MergeRequest, 'merge_status' | 'merge_check_head_sha' | 'head_commit_sha'>): boolean {
  return blocker === 'CONFLICT' && live.targetExists && live.conflict && mergeRequest.merge_status === 'can_be_merged' && mergeRequest.merge_check_head_sha === mergeRequest.head_commit_sha;
}
