import { describe, expect, it } from 'vitest';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import { BRANCH_MESSAGES, branchCreationRefusal, branchDeletionRefusal, canPushToBranch, isMerged, protectionFlags, searchByName } from './branch-rules.js';

const protection = (name: string, push: number, merge = 40): ProtectedBranch => ({
  id: 1,
  project_id: 1,
  name,
  allow_force_push: false,
  code_owner_approval_required: false,
  rules: [
    { id: 1, kind: 'push', access_level: push, user_id: null, group_id: null },
    { id: 2, kind: 'merge', access_level: merge, user_id: null, group_id: null },
  ],
});

const developer: PusherFacts = { userId: 2, isAdmin: false, accessLevel: 30 };
const maintainer: PusherFacts = { userId: 3, isAdmin: false, accessLevel: 40 };
const admin: PusherFacts = { userId: 1, isAdmin: true, accessLevel: 0 };
const names = (...list: string[]) => list.map((name) => ({ name }));

describe('searchByName (GitLab BranchesFinder, no regular expressions)', () => {
  const branches = names('main', 'feature/login', 'Feature/Logout', 'fix-main', 'release/1.0', 'log');
  it.each([
    [undefined, ['main', 'feature/login', 'Feature/Logout', 'fix-main', 'release/1.0', 'log']],
    ['^feature', ['feature/login', 'Feature/Logout']],
    ['main$', ['main', 'fix-main']],
    ['LOG', ['log', 'feature/login', 'Feature/Logout']],
    ['^nothing', []],
    // Regular expression syntax is literal text.
    ['.*', []],
    ['release/1.0', ['release/1.0']],
  ])('%s', (search, expected) => {
    expect(searchByName(branches, search).map((b) => b.name)).toEqual(expected);
  });
});

describe('protectionFlags', () => {
  it('an unprotected branch has no flags', () => {
    expect(protectionFlags('topic', [protection('main', 40)])).toEqual({ protected: false, developers_can_push: false, developers_can_merge: false });
  });
  it('reads the Developer grants of every matching protection, wildcards included', () => {
    expect(protectionFlags('release/1', [protection('release/*', 30, 40)])).toEqual({ protected: true, developers_can_push: true, developers_can_merge: false });
    expect(protectionFlags('main', [protection('main', 40, 30)])).toEqual({ protected: true, developers_can_push: false, developers_can_merge: true });
  });
});

describe('canPushToBranch', () => {
  const rules = [protection('main', 40)];
  it.each([
    ['no push rights at all', null, 'topic', false],
    ['a Developer, unprotected branch', developer, 'topic', true],
    ['a Developer, Maintainer-only branch', developer, 'main', false],
    ['a Maintainer, Maintainer-only branch', maintainer, 'main', true],
    ['an admin', admin, 'main', true],
  ] as const)('%s', (_, pusher, branch, expected) => {
    expect(canPushToBranch(pusher, branch, rules)).toBe(expected);
  });
  it('No one (0) keeps even admins out', () => {
    expect(canPushToBranch(admin, 'main', [protection('main', 0)])).toBe(false);
  });
});

describe('branchCreationRefusal', () => {
  it('lets Developers create unprotected branches and refuses protected names they cannot push or merge to', () => {
    expect(branchCreationRefusal(developer, 'topic', [protection('release/*', 40)])).toBeNull();
    expect(branchCreationRefusal(developer, 'release/2', [protection('release/*', 40)])).toBe('You are not allowed to create protected branches on this project.');
    expect(branchCreationRefusal(developer, 'release/2', [protection('release/*', 40, 30)])).toBeNull();
  });
});

describe('branchDeletionRefusal', () => {
  const rules = [protection('main', 40), protection('stable-*', 30)];
  it.each([
    ['the default branch, even for an admin', admin, 'main', 'default'],
    ['an unprotected branch', developer, 'topic', null],
    ['a protected branch, Developer', developer, 'stable-1', 'protected'],
    ['a protected branch, Maintainer', maintainer, 'stable-1', null],
    ['a protected branch, admin', admin, 'stable-1', null],
  ] as const)('%s', (_, pusher, branch, kind) => {
    const refusal = branchDeletionRefusal(pusher, branch, 'main', rules);
    expect(refusal?.kind ?? null).toBe(kind);
  });
  it('uses GitLab wording', () => {
    expect(branchDeletionRefusal(developer, 'main', 'main', rules)?.message).toBe(BRANCH_MESSAGES.deleteDefault);
    expect(branchDeletionRefusal(developer, 'stable-1', 'main', rules)?.message).toBe(BRANCH_MESSAGES.deleteProtected);
  });
});

describe('isMerged', () => {
  it('is false for the default branch tip itself and without a default branch', () => {
    expect(isMerged('a', 'a', true)).toBe(false);
    expect(isMerged('a', null, true)).toBe(false);
    expect(isMerged('a', 'b', true)).toBe(true);
    expect(isMerged('a', 'b', false)).toBe(false);
  });
});
