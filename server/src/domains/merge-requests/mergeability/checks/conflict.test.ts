import { describe, expect, it } from 'vitest';
import { conflictCheck } from './conflict.js';
import { mergeableFacts } from './test-facts.js';

describe('CONFLICT', () => {
  it.each([
    ['can_be_merged', 'SUCCESS'],
    ['cannot_be_merged', 'FAILED'],
    ['unchecked', 'CHECKING'],
    ['checking', 'CHECKING'],
    ['preparing', 'CHECKING'],
    ['cannot_be_merged_recheck', 'CHECKING'],
    ['cannot_be_merged_rechecking', 'CHECKING'],
  ] as const)('merge_status %s → %s', (mergeStatus, expected) => {
    expect(conflictCheck.run(mergeableFacts({ mergeStatus }))).toBe(expected);
  });
});
