import { describe, expect, it } from 'vitest';
import { replyResolution } from './resolve-status';

describe('replyResolution', () => {
  it.each([
    [false, false, 'Resolve thread', false, 'Thread stays open'],
    [false, true, 'Resolve thread', true, 'Thread will be resolved'],
    [true, false, 'Unresolve thread', true, 'Thread stays resolved'],
    [true, true, 'Unresolve thread', false, 'Thread will be open'],
  ] as const)('resolved %s, checked %s', (resolved, checked, label, resolvedAfter, message) => {
    expect(replyResolution(resolved, checked)).toEqual({ label, resolvedAfter, message });
  });
});
