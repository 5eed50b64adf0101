import { describe, expect, it } from 'vitest';
import { matchesBranchPattern } from './branch-pattern.js';
import { canMergeIntoBranch, checkBranchUpdate, PUSH_MESSAGES, type PusherFacts } from './push-rules.js';
import type { ProtectedBranch } from './protected-branch.js';

const protection = (name: string, push: number, merge = 40, allowForcePush = false): ProtectedBranch => ({
  id: 1,
  project_id: 1,
  name,
  allow_force_push: allowForcePush,
  code_owner_approval_required: false,
  rules: [
    { id: 1, kind: 'push', access_level: push, user_id: null, group_id: null },
    { id: 2, kind: 'merge', access_level: merge, user_id: null, group_id: null },
  ],
});

const developer: PusherFacts = { userId: 2, isAdmin: false, accessLevel: 30 };
const maintainer: PusherFacts = { userId: 3, isAdmin: false, accessLevel: 40 };
const update = (overrides: Partial<{ branch: string; creating: boolean; deleting: boolean; forced: boolean }> = {}) => ({
  branch: 'main',
  creating: false,
  deleting: false,
  forced: false,
  ...overrides,
});

describe('matchesBranchPattern', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release', false],
    ['*-stable', '1-0-stable', true],
    ['*', 'anything/at/all', true],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXbYY', false],
  ])('%s ~ %s → %s', (pattern, name, expected) => {
    expect(matchesBranchPattern(pattern, name)).toBe(expected);
  });

  it('stays linear on adversarial input', () => {
    const started = performance.now();
    expect(matchesBranchPattern('*a*a*a*a*a*a*a*b', 'a'.repeat(50_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('checkBranchUpdate', () => {
  const main = [protection('main', 40)];
  it.each([
    ['reporter cannot push anywhere', { ...developer, accessLevel: 20 }, update({ branch: 'feature' }), main, PUSH_MESSAGES.notAllowed],
    ['developer pushes an unprotected branch', developer, update({ branch: 'feature' }), main, null],
    ['developer force pushes an unprotected branch', developer, update({ branch: 'feature', forced: true }), main, null],
    ['developer cannot push to protected main', developer, update(), main, PUSH_MESSAGES.protectedPush],
    ['maintainer pushes to protected main', maintainer, update(), main, null],
    ['maintainer cannot force push protected main', maintainer, update({ forced: true }), main, PUSH_MESSAGES.protectedForce],
    ['force push allowed when the rule says so', maintainer, update({ forced: true }), [protection('main', 40, 40, true)], null],
    ['nobody deletes a protected branch by push', maintainer, update({ deleting: true }), main, PUSH_MESSAGES.protectedDelete],
    ['developer may push when developers are allowed', developer, update(), [protection('main', 30)], null],
    ['no one may push when the level is 0', maintainer, update(), [protection('main', 0, 0)], PUSH_MESSAGES.protectedPush],
    ['wildcard protections apply', developer, update({ branch: 'release/1' }), [protection('release/*', 40)], PUSH_MESSAGES.protectedPush],
    ['most permissive matching rule wins', developer, update({ branch: 'release/1' }), [protection('release/*', 40), protection('release/1', 30)], null],
    ['developer cannot create a branch only maintainers may push or merge', developer, update({ creating: true }), main, PUSH_MESSAGES.protectedCreate],
    ['admin pushes anywhere but may not force push', { userId: 1, isAdmin: true, accessLevel: 0 }, update({ forced: true }), main, PUSH_MESSAGES.protectedForce],
  ] as const)('%s', (_name, pusher, change, protections, expected) => {
    expect(checkBranchUpdate(pusher, change, [...protections])).toBe(expected);
  });
});

describe('canMergeIntoBranch (GitLab\'s can_be_merged_by?: the push rule or the merge rule)', () => {
  const roles = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
  const NO_ONE = 0;
  const ADMINS = 60;
  // [protection of main (push, merge) or none, the lowest role that may merge into it]
  const settings: Array<[string, ProtectedBranch[], number | null]> = [
    ['unprotected', [], 30],
    ['push Developers, merge Maintainers', [protection('main', 30, 40)], 30],
    ['push Maintainers, merge Developers', [protection('main', 40, 30)], 30],
    ['push Maintainers, merge Maintainers', [protection('main', 40, 40)], 40],
    ['push No one, merge Maintainers', [protection('main', NO_ONE, 40)], 40],
    ['push Developers, merge No one', [protection('main', 30, NO_ONE)], 30],
    ['push No one, merge No one', [protection('main', NO_ONE, NO_ONE)], null],
    ['push Admins, merge Admins', [protection('main', ADMINS, ADMINS)], null],
    ['a wildcard: push No one, merge Developers', [protection('ma*', NO_ONE, 30)], 30],
  ];
  for (const [name, protections, lowest] of settings) {
    for (const [role, level] of Object.entries(roles)) {
      const expected = lowest !== null && level >= lowest;
      it(`${name}: a ${role} ${expected ? 'may' : 'may not'} merge`, () => {
        expect(canMergeIntoBranch({ userId: 9, isAdmin: false, accessLevel: level }, 'main', protections, false)).toBe(expected);
      });
    }
    it(`${name}: an administrator may merge unless No one may push or merge`, () => {
      const blocked = protections.length > 0 && protections.every((p) => p.rules.every((rule) => rule.access_level === NO_ONE));
      expect(canMergeIntoBranch({ userId: 1, isAdmin: true, accessLevel: 0 }, 'main', protections, false)).toBe(!blocked);
    });
    it(`${name}: nobody merges into an archived project`, () => {
      expect(canMergeIntoBranch({ userId: 1, isAdmin: true, accessLevel: 50 }, 'main', protections, true)).toBe(false);
      expect(canMergeIntoBranch({ userId: 9, isAdmin: false, accessLevel: 50 }, 'main', protections, true)).toBe(false);
    });
  }
});
