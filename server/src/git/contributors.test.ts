import { describe, expect, it } from 'vitest';
import { countContributors } from './contributors.js';

describe('countContributors', () => {
  it('counts commits per email, case-insensitively, keeping the newest name (git log lists newest first)', () => {
    expect(countContributors('Ann B\0ann@x.org\nBob\0bob@x.org\nAnn\0ANN@x.org\n')).toEqual([
      { name: 'Ann B', email: 'ann@x.org', commits: 2 },
      { name: 'Bob', email: 'bob@x.org', commits: 1 },
    ]);
  });
});
