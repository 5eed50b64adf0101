import { describe, expect, it } from 'vitest';
import { blockedStatusCheck } from './blocked-status.js';
import { mergeableFacts } from './test-facts.js';

describe('BLOCKED_STATUS', () => {
  it.each([
    ['no dependencies', [], 'SUCCESS'],
    ['every blocker merged', ['merged', 'merged'], 'SUCCESS'],
    ['an open blocker', ['merged', 'opened'], 'FAILED'],
    ['a closed blocker still blocks', ['closed'], 'FAILED'],
    ['a blocker being merged', ['locked'], 'FAILED'],
  ] as const)('%s → %s', (_name, blockers, expected) => {
    expect(blockedStatusCheck.run(mergeableFacts({ blockers: [...blockers] }))).toBe(expected);
  });
});
