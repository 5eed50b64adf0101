import { describe, expect, it } from 'vitest';
import { blockedDuringMergeReason, mergeShape, requiresFastForwardPossible, sourceBranchDeleter, squashOnMerge } from './merge-plan.js';

describe('squashOnMerge', () => {
  it.each([
    // project option, squash asked in the merge call, the request's own setting → squash
    ['never', true, true, false],
    ['never', undefined, true, false],
    ['always', false, false, true],
    ['always', undefined, false, true],
    ['default_on', false, true, false],
    ['default_on', true, false, true],
    ['default_on', undefined, true, true],
    ['default_off', undefined, false, false],
    ['default_off', true, false, true],
  ] as const)('%s, asked %s, request %s → %s', (option, requested, own, expected) => {
    expect(squashOnMerge(option, requested, own)).toBe(expected);
  });
});

describe('merge methods', () => {
  it('needs a fast-forward-able target for semi-linear history and fast-forward only', () => {
    expect(requiresFastForwardPossible('merge')).toBe(false);
    expect(requiresFastForwardPossible('rebase_merge')).toBe(true);
    expect(requiresFastForwardPossible('ff')).toBe(true);
  });

  it('writes a merge commit except for fast-forward', () => {
    expect(mergeShape('merge', false)).toEqual({ squash: false, mergeCommit: true });
    expect(mergeShape('rebase_merge', true)).toEqual({ squash: true, mergeCommit: true });
    expect(mergeShape('ff', true)).toEqual({ squash: true, mergeCommit: false });
  });

  it('explains a check that fails only during the merge', () => {
    expect(blockedDuringMergeReason('NEED_REBASE')).toBe('fastForwardOnly');
    expect(blockedDuringMergeReason('CONFLICT')).toBe('notMergeable');
  });
});

describe('sourceBranchDeleter (a merge and a merge train car alike)', () => {
  it.each<[string, boolean | null, boolean | null | undefined, number | null]>([
    ['nobody asked', false, undefined, null],
    ['the merge asked: the merger deletes', false, true, 2],
    ['the merge said keep it, over the request', true, false, null],
    ['only the request asked: its author deletes', true, undefined, 1],
    ['both asked: the author, whose choice it was', true, true, 1],
    ['the request null, the merge silent', null, null, null],
  ])('%s', (_name, force, should, expected) => {
    expect(sourceBranchDeleter({ force_remove_source_branch: force, author_id: 1 }, should, 2)).toBe(expected);
  });
});
