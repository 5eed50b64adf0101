import { describe, expect, it } from 'vitest';
import { commitsStatusCheck } from './commits-status.js';
import { mergeableFacts } from './test-facts.js';

describe('COMMITS_STATUS', () => {
  it.each([
    ['a source branch with commits', {}, 'SUCCESS'],
    ['a deleted source branch', { sourceBranchExists: false }, 'FAILED'],
    ['a deleted source branch, even before the first version', { sourceBranchExists: false, commitsCount: null }, 'FAILED'],
    ['no commits beyond the target', { commitsCount: 0 }, 'FAILED'],
    ['no version recorded yet', { commitsCount: null }, 'CHECKING'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(commitsStatusCheck.run(mergeableFacts(overrides))).toBe(expected);
  });
});
