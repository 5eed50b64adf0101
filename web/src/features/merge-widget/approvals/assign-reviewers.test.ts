import type { WidgetUser } from '@tributary/contracts/merge-widget';
import { describe, expect, it } from 'vitest';
import { reviewerCandidates, userIdOf } from './assign-reviewers';

const user = (id: number): WidgetUser => ({ id: `gid://gitlab/User/${id}`, username: `u${id}`, name: `U ${id}`, webUrl: `/u${id}`, avatarUrl: null });

describe('reviewerCandidates', () => {
  it.each([
    ['every eligible approver once', [{ approved: false, eligibleApprovers: [user(1), user(2)] }, { approved: false, eligibleApprovers: [user(2), user(3)] }], [], null, [1, 2, 3]],
    ['not those already reviewers', [{ approved: false, eligibleApprovers: [user(1), user(2)] }], [2], null, [1]],
    ['not the author', [{ approved: false, eligibleApprovers: [user(1), user(2)] }], [], 1, [2]],
    ['the rules still waiting first', [{ approved: true, eligibleApprovers: [user(1)] }, { approved: false, eligibleApprovers: [user(2)] }], [], null, [2, 1]],
    ['nobody when all are reviewers', [{ approved: false, eligibleApprovers: [user(1)] }], [1], null, []],
    ['nobody without rules', [], [], null, []],
  ])('%s', (_, rules, reviewers, author, expected) => {
    expect(reviewerCandidates(rules, reviewers, author).map(userIdOf)).toEqual(expected);
  });
});
