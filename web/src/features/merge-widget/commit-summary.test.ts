import { t } from '@tributary/contracts/i18n';
import { describe, expect, it } from 'vitest';
import { commitSummary } from './commit-summary';

/** The sentence as a reader sees it, with the branch and SHA filled in. */
const read = (input: Parameters<typeof commitSummary>[0]) => {
  const summary = commitSummary(input);
  return t(summary.message, { ...summary.values, targetBranch: 'main', mergeCommitSha: '1a2b3c4d' });
};

describe('commitSummary', () => {
  it('counts the commits and the merge commit', () => {
    expect(read({ state: 'opened', ffOnly: false, squash: false, commitCount: 3 })).toBe('3 commits and 1 merge commit will be added to main.');
    expect(read({ state: 'opened', ffOnly: false, squash: false, commitCount: 1 })).toBe('1 commit and 1 merge commit will be added to main.');
  });

  it('shows one commit when squashing, and how many it squashes', () => {
    expect(read({ state: 'opened', ffOnly: false, squash: true, commitCount: 3 })).toBe('1 commit and 1 merge commit will be added to main (squashes 3 commits).');
  });

  it('has no merge commit when the project fast-forwards', () => {
    expect(read({ state: 'opened', ffOnly: true, squash: false, commitCount: 2 })).toBe('2 commits will be added to main.');
  });

  it('names the merge commit after the merge, and the target when closed', () => {
    expect(read({ state: 'merged', ffOnly: false, squash: false, commitCount: 2 })).toBe('Changes merged into main with 1a2b3c4d.');
    expect(read({ state: 'merged', ffOnly: false, squash: true, commitCount: 2 })).toBe('Changes merged into main with 1a2b3c4d (commits were squashed).');
    expect(read({ state: 'closed', ffOnly: false, squash: false, commitCount: 2 })).toBe('The changes were not merged into main.');
  });
});
