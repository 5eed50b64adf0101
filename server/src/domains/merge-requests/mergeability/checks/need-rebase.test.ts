import { describe, expect, it } from 'vitest';
import { needRebaseCheck } from './need-rebase.js';
import { mergeableFacts } from './test-facts.js';

describe('NEED_REBASE', () => {
  it.each([
    ['merge commits never need a rebase', { mergeMethod: 'merge', divergedCommitsCount: 3 }, 'INACTIVE'],
    ['fast-forward, head contains the target', { mergeMethod: 'ff', divergedCommitsCount: 0 }, 'SUCCESS'],
    ['fast-forward, target moved on', { mergeMethod: 'ff', divergedCommitsCount: 1 }, 'FAILED'],
    ['semi-linear, target moved on', { mergeMethod: 'rebase_merge', divergedCommitsCount: 4 }, 'FAILED'],
    ['semi-linear, head contains the target', { mergeMethod: 'rebase_merge', divergedCommitsCount: 0 }, 'SUCCESS'],
    ['fast-forward while the trial merge runs', { mergeMethod: 'ff', mergeStatus: 'checking', divergedCommitsCount: 0 }, 'CHECKING'],
    ['fast-forward, nothing counted (a branch is missing)', { mergeMethod: 'ff', mergeStatus: 'cannot_be_merged', divergedCommitsCount: null }, 'INACTIVE'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(needRebaseCheck.run(mergeableFacts(overrides))).toBe(expected);
  });
});
