import { describe, expect, it } from 'vitest';
import { pickBranchName, pickEndpoint } from './pick';

describe('pick names', () => {
  const sha = '0123456789abcdef0123456789abcdef01234567';
  it("names the new branch as GitLab does: the action and the commit's short sha", () => {
    expect(pickBranchName('revert', sha)).toBe('revert-01234567');
    expect(pickBranchName('cherry-pick', sha)).toBe('cherry-pick-01234567');
  });
  it('maps each kind to its commits API endpoint', () => {
    expect(pickEndpoint('revert')).toBe('revert');
    expect(pickEndpoint('cherry-pick')).toBe('cherry_pick');
  });
});
