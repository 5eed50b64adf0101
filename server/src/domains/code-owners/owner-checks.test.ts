import { describe, expect, it } from 'vitest';
import { parseCodeOwners } from './codeowners-file.js';
import { checkOwners, ownerReferences, type OwnerFacts } from './owner-checks.js';

const facts: OwnerFacts = {
  // developer, reporter, a user who is no member
  userLevelByName: new Map([['dev', 30], ['reporter', 20], ['stranger', 0]]),
  userLevelByEmail: new Map([['dev@example.com', 30], ['reporter@example.com', 20], ['stranger@example.com', 0]]),
  groupByPath: new Map([
    ['team', { reachable: true, hasEligibleMember: true }],
    ['team/readers', { reachable: true, hasEligibleMember: false }],
    ['elsewhere', { reachable: false, hasEligibleMember: true }],
  ]),
  approverLevel: 30,
};

const check = (text: string) => checkOwners(parseCodeOwners(text).ownerLines, facts);

/** GitLab's owner checks of a CODEOWNERS file, line by line (its file view's validation). */
describe('checkOwners', () => {
  it.each([
    ['a developer', 'a.rb @dev', []],
    ['a developer by email', 'a.rb dev@example.com', []],
    ['a reachable group with an approver', 'a.rb @team', []],
    ['a role (not checked)', 'a.rb @@maintainer', []],
    ['no such user or group', 'a.rb @nobody', ['inaccessible_owner']],
    ['a user who is no member', 'a.rb @stranger', ['inaccessible_owner']],
    ['an email of no user', 'a.rb nobody@example.com', ['inaccessible_owner']],
    ['an email of a non-member', 'a.rb stranger@example.com', ['inaccessible_owner']],
    ['a group the project does not reach', 'a.rb @elsewhere', ['inaccessible_owner']],
    ['a group without an approver', 'a.rb @team/readers', ['group_without_eligible_approvers']],
    ['a reporter', 'a.rb @reporter', ['owner_without_permission']],
    ['a reporter by email', 'a.rb reporter@example.com', ['owner_without_permission']],
    ['inaccessible wins over the rest on one line', 'a.rb @reporter @team/readers @nobody', ['inaccessible_owner']],
    ['a group without approvers wins over a reporter', 'a.rb @reporter @team/readers', ['group_without_eligible_approvers']],
  ])('%s', (_, text, kinds) => {
    expect(check(text).map((error) => error.kind)).toEqual(kinds);
  });

  it('checks the line that names the owners: a section heading’s defaults, not the entries inheriting them', () => {
    const text = ['one.rb @nobody', '', '[Section] @nobody', 'two.rb', '[Other][2]', 'three.rb @reporter', '^[Optional]', 'four.rb @dev', '!five.rb'].join('\n');
    expect(check(text)).toEqual([
      { kind: 'inaccessible_owner', line: 1 },
      { kind: 'inaccessible_owner', line: 3 },
      { kind: 'owner_without_permission', line: 6 },
    ]);
  });

  it('collects each name and email once, lower case, for one query per kind', () => {
    expect(ownerReferences(parseCodeOwners('a @Dev dev@Example.com\nb @dev @@owner\n').ownerLines)).toEqual({ names: ['dev'], emails: ['dev@example.com'] });
  });
});
