import { describe, expect, it } from 'vitest';
import type { MergeRequest } from '../merge-request.js';
import { assess, factsOf } from '../mergeability/index.js';
import { blockerOf, freshGitFacts, targetConflictUnseen, type LiveFacts } from './mergeability-gate.js';

/** The gate folded by the real checks (mergeability/fold.ts) over literal facts. */
function gate(overrides: { state?: MergeRequest['state']; draft?: boolean; commits?: number | null; method?: 'merge' | 'ff' } & Partial<LiveFacts> = {}) {
  const mergeRequest = {
    state: overrides.state ?? 'opened',
    draft: overrides.draft ?? false,
    title: 'A title',
    commits_count: overrides.commits === undefined ? 2 : overrides.commits,
    merge_status: 'checking', // a stale cache: the live facts must decide
    merge_checked_at: null,
    merge_check_source_sha: null,
    diverged_commits_count: null,
  } as unknown as MergeRequest;
  const facts = factsOf(mergeRequest, { merge_method: overrides.method ?? 'merge', only_allow_merge_if_all_discussions_are_resolved: false, merge_request_title_regex: null, only_allow_merge_if_pipeline_succeeds: false, allow_merge_on_skipped_pipeline: false }, { blockers: [], unresolvedDiscussions: 0 });
  Object.assign(facts, freshGitFacts({ sourceExists: overrides.sourceExists ?? true, targetExists: overrides.targetExists ?? true, conflict: overrides.conflict ?? false, needRebase: overrides.needRebase ?? false }));
  return blockerOf(assess(facts).detailedMergeStatus);
}

describe('the merge gate', () => {
  it.each([
    ['a mergeable request, whatever the stored merge_status', gate(), null],
    ['a closed request', gate({ state: 'closed' }), 'NOT_OPEN'],
    ['a merged request', gate({ state: 'merged' }), 'NOT_OPEN'],
    ['a draft', gate({ draft: true }), 'DRAFT_STATUS'],
    ['a request without commits', gate({ commits: 0 }), 'COMMITS_STATUS'],
    ['a request whose first version is not recorded', gate({ commits: null }), 'PREPARING'],
    ['a missing source branch', gate({ sourceExists: false }), 'COMMITS_STATUS'],
    ['a missing target branch', gate({ targetExists: false }), 'CONFLICT'],
    ['a conflict', gate({ conflict: true }), 'CONFLICT'],
    ['a fast-forward that is not possible', gate({ method: 'ff', needRebase: true }), 'NEED_REBASE'],
    ['a draft that also needs a rebase (draft first)', gate({ method: 'ff', draft: true, needRebase: true }), 'DRAFT_STATUS'],
  ])('%s → %s', (_name, blocker, expected) => {
    expect(blocker).toBe(expected);
  });

  it('states the live git facts in the checks’ terms', () => {
    expect(freshGitFacts({ sourceExists: true, targetExists: true, conflict: false, needRebase: true })).toEqual({ sourceBranchExists: true, mergeStatus: 'can_be_merged', divergedCommitsCount: 1 });
    expect(freshGitFacts({ sourceExists: false, targetExists: false, conflict: false, needRebase: false })).toEqual({ sourceBranchExists: false, mergeStatus: 'cannot_be_merged', divergedCommitsCount: 0 });
  });

  describe('a conflict the stored checks did not see (422, not 405)', () => {
    const head = 'a'.repeat(40);
    const stored = (merge_status: MergeRequest['merge_status'], merge_check_head_sha: string | null = head) => ({ merge_status, merge_check_head_sha, head_commit_sha: head });
    const conflict = { targetExists: true, conflict: true };
    it.each([
      ['stored "can be merged" for this head, live conflict', 'CONFLICT', conflict, stored('can_be_merged'), true],
      ['stored "cannot be merged": the checks saw it', 'CONFLICT', conflict, stored('cannot_be_merged'), false],
      ['not checked yet: the merge checks it now', 'CONFLICT', conflict, stored('unchecked'), false],
      ['stored for an older head', 'CONFLICT', conflict, stored('can_be_merged', 'b'.repeat(40)), false],
      ['the target branch is gone', 'CONFLICT', { targetExists: false, conflict: false }, stored('can_be_merged'), false],
      ['another blocker', 'DRAFT_STATUS', conflict, stored('can_be_merged'), false],
    ] as const)('%s → %s', (_name, blocker, live, mergeRequest, expected) => {
      expect(targetConflictUnseen(blocker, live, mergeRequest)).toBe(expected);
    });
  });
});
