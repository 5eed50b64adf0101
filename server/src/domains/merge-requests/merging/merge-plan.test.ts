import { describe, expect, it } from 'vitest';
import { blockedDuringMergeReason, mergeShape, requiresFastForwardPossible, squashOnMerge } from './merge-plan.js';

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
