import type { MergeabilityFacts } from '../facts.js';

/** Facts of an open, mergeable request in a merge-commit project; tests override what they need. */
export function mergeableFacts(overrides: Partial<MergeabilityFacts> = {}): MergeabilityFacts {
  return {
    state: 'opened',
    draft: false,
    title: 'Add the widget',
    commitsCount: 2,
    sourceBranchExists: true,
    mergeStatus: 'can_be_merged',
    divergedCommitsCount: 0,
    mergeMethod: 'merge',
    titleRegex: null,
    blockers: [],
    discussionsMustBeResolved: false,
    unresolvedDiscussions: 0,
    pipelineMustSucceed: false,
    skippedPipelineSucceeds: false,
    headPipelineStatus: null,
    ...overrides,
  };
}
