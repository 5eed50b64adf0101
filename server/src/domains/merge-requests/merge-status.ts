/**
 * The merge request's `detailed_merge_status` as far as this issue knows it (git state,
 * draft, commits). The merge widget issue replaces this with one list of check modules
 * (GitLab's mergeability framework); until then the order follows GitLab's
 * DetailedMergeStatusService: preparing, checking, unchecked, then the failed checks in the
 * order open, draft, commits, conflict. Pure.
 */
import type { MergeRequestState, MergeStatus } from './merge-request.js';

export type DetailedMergeStatus = 'preparing' | 'checking' | 'unchecked' | 'not_open' | 'draft_status' | 'commits_status' | 'conflict' | 'mergeable';

export interface MergeStatusFacts {
  state: MergeRequestState;
  draft: boolean;
  mergeStatus: MergeStatus;
  /** null until the first version is recorded */
  commitsCount: number | null;
}

export function detailedMergeStatus(facts: MergeStatusFacts): DetailedMergeStatus {
  if (facts.state === 'opened' && facts.commitsCount === null) return 'preparing';
  if (facts.mergeStatus === 'checking' || facts.mergeStatus === 'cannot_be_merged_rechecking' || facts.mergeStatus === 'preparing') return 'checking';
  if (facts.mergeStatus === 'unchecked' || facts.mergeStatus === 'cannot_be_merged_recheck') return 'unchecked';
  if (facts.state !== 'opened') return 'not_open';
  if (facts.draft) return 'draft_status';
  if (!facts.commitsCount) return 'commits_status';
  if (facts.mergeStatus === 'cannot_be_merged') return 'conflict';
  return 'mergeable';
}

/** The deprecated `merge_status` field: GitLab shows its internal recheck states as `checking`. */
export function publicMergeStatus(status: MergeStatus): MergeStatus {
  return status === 'cannot_be_merged_rechecking' || status === 'preparing' ? 'checking' : status;
}
