import { describe, expect, it } from 'vitest';
import { stateBadge } from './state';

describe('stateBadge', () => {
  it.each([
    [{ state: 'opened', draft: false }, 'Open'],
    [{ state: 'opened', draft: true }, 'Draft'],
    [{ state: 'merged', draft: false }, 'Merged'],
    [{ state: 'closed', draft: true }, 'Closed'],
    [{ state: 'locked', draft: false }, 'Locked'],
  ] as const)('%j → %s', (mr, label) => expect(stateBadge(mr).label).toBe(label));
});
