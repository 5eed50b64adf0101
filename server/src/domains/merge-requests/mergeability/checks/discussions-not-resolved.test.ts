import { describe, expect, it } from 'vitest';
import { discussionsNotResolvedCheck } from './discussions-not-resolved.js';
import { mergeableFacts } from './test-facts.js';

describe('DISCUSSIONS_NOT_RESOLVED', () => {
  it.each([
    ['the project does not ask for it', { discussionsMustBeResolved: false, unresolvedDiscussions: 3 }, 'INACTIVE'],
    ['asked for, no open threads', { discussionsMustBeResolved: true, unresolvedDiscussions: 0 }, 'SUCCESS'],
    ['asked for, an open thread', { discussionsMustBeResolved: true, unresolvedDiscussions: 1 }, 'FAILED'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(discussionsNotResolvedCheck.run(mergeableFacts(overrides))).toBe(expected);
  });
});
