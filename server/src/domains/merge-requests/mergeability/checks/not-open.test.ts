import { describe, expect, it } from 'vitest';
import { notOpenCheck } from './not-open.js';
import { mergeableFacts } from './test-facts.js';

describe('NOT_OPEN', () => {
  it.each([
    ['opened', 'SUCCESS'],
    ['locked', 'SUCCESS'],
    ['closed', 'FAILED'],
    ['merged', 'FAILED'],
  ] as const)('%s → %s', (state, expected) => {
    expect(notOpenCheck.run(mergeableFacts({ state }))).toBe(expected);
  });
});
