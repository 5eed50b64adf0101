/**
 * Replaced by the mergeability module (mergeability/: one module per check, one fold). What
 * remains is a thin adapter for callers not yet moved to it (merging/mergeability-gate.ts,
 * the GraphQL layer): the same fold, fed the few facts they have, in REST spelling. New code
 * imports from './mergeability/index.js'.
 */
import { publicMergeStatus, restDetailedMergeStatus } from './mergeability/rest-names.js';
import { assess } from './mergeability/fold.js';
import type { MergeRequestState, MergeStatus } from './merge-request.js';

export { publicMergeStatus };

export interface MergeStatusFacts {
  state: MergeRequestState;
  draft: boolean;
  mergeStatus: MergeStatus;
  /** null until the first version is recorded */
  commitsCount: number | null;
}

/** `detailed_merge_status` (REST spelling) from the state, draft, commits and git checks only. */
export function detailedMergeStatus(facts: MergeStatusFacts): string {
  const { detailedMergeStatus: status } = assess({
    state: facts.state,
    draft: facts.draft,
    title: '',
    commitsCount: facts.commitsCount,
    sourceBranchExists: true,
    mergeStatus: facts.mergeStatus,
    divergedCommitsCount: 0,
    mergeMethod: 'merge',
    titleRegex: null,
    blockers: [],
    discussionsMustBeResolved: false,
    unresolvedDiscussions: 0,
  });
  return restDetailedMergeStatus(status);
}
