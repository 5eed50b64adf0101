import { describe, expect, it } from 'vitest';
import { followRebase, NOT_WATCHING, type RebaseWatch } from './rebase-watch';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const watching: RebaseWatch = { phase: 'watching', since: 1_000 };
const data = (overrides: Partial<{ rebaseInProgress: boolean; diffHeadSha: string | null; mergeError: string | null }> = {}) => ({
  rebaseInProgress: false,
  diffHeadSha: OLD,
  mergeError: null,
  ...overrides,
});

describe('followRebase', () => {
  it('accepts nothing when no rebase was started here', () => {
    expect(followRebase(NOT_WATCHING, data({ diffHeadSha: NEW }), 2_000, OLD)).toEqual({ watch: NOT_WATCHING, acceptSha: null });
  });

  it('ignores data fetched before the rebase was scheduled', () => {
    expect(followRebase(watching, data({ mergeError: 'old error' }), 900, OLD)).toEqual({ watch: watching, acceptSha: null });
  });

  it('waits while the rebase runs, then accepts the head it produced', () => {
    expect(followRebase(watching, data({ rebaseInProgress: true }), 2_000, OLD)).toEqual({ watch: watching, acceptSha: null });
    expect(followRebase(watching, data({ diffHeadSha: NEW }), 3_000, OLD)).toEqual({ watch: NOT_WATCHING, acceptSha: NEW });
  });

  it('stops watching a rebase that failed, keeping the head', () => {
    expect(followRebase(watching, data({ mergeError: 'Rebase failed. Please rebase locally' }), 2_000, OLD)).toEqual({ watch: NOT_WATCHING, acceptSha: null });
  });

  it('keeps waiting for a scheduled rebase that has not started', () => {
    expect(followRebase(watching, data(), 2_000, OLD)).toEqual({ watch: watching, acceptSha: null });
  });
});
