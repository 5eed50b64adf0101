import { describe, expect, it } from 'vitest';
import { canAssignAccessLevel, canChangeMember, canRead, canUpdateMergeRequest, groupAbilities, projectAbilities, type SubjectContext } from './permissions.js';

const ctx = (overrides: Partial<SubjectContext>): SubjectContext => ({ userId: 1, isAdmin: false, accessLevel: 0, visibility: 'private', ...overrides });

describe('canRead', () => {
  it.each([
    ['anonymous, public', { userId: null, visibility: 'public' }, true],
    ['anonymous, internal', { userId: null, visibility: 'internal' }, false],
    ['anonymous, private', { userId: null, visibility: 'private' }, false],
    ['signed in non-member, internal', { visibility: 'internal' }, true],
    ['signed in non-member, private', { visibility: 'private' }, false],
    ['guest, private', { accessLevel: 10 }, true],
    ['minimal access, private', { accessLevel: 5 }, false],
    ['admin, private', { isAdmin: true }, true],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(canRead(ctx(overrides as Partial<SubjectContext>))).toBe(expected);
  });
});

describe('projectAbilities', () => {
  it.each([
    ['stranger of a private project has nothing', { accessLevel: 0 }, [], ['read_project']],
    ['guest reads but cannot download private code', { accessLevel: 10 }, ['read_project'], ['download_code', 'push_code']],
    ['guest downloads code of an internal project', { accessLevel: 10, visibility: 'internal' }, ['download_code'], ['push_code']],
    ['anonymous downloads public code but cannot fork', { userId: null, visibility: 'public' }, ['download_code'], ['fork_project', 'push_code']],
    ['reporter downloads private code', { accessLevel: 20 }, ['download_code'], ['push_code']],
    ['developer pushes and branches', { accessLevel: 30 }, ['push_code', 'create_branch', 'delete_branch'], ['admin_project']],
    ['developer cannot push to an archived project', { accessLevel: 30, archived: true }, ['download_code'], ['push_code']],
    ['maintainer administers', { accessLevel: 40 }, ['admin_project', 'admin_members', 'admin_protected_branches'], ['remove_project']],
    ['owner removes and changes visibility', { accessLevel: 50 }, ['remove_project', 'change_visibility'], []],
    ['admin can do everything', { isAdmin: true }, ['remove_project', 'push_code'], []],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('merge request abilities', () => {
  it.each([
    ['stranger of a private project sees none', { accessLevel: 0 }, [], ['read_merge_request', 'create_merge_request_in']],
    ['guest of a private project cannot read them (they show code)', { accessLevel: 10 }, [], ['read_merge_request', 'create_merge_request_in']],
    ['reporter reads and may target the project', { accessLevel: 20 }, ['read_merge_request', 'create_merge_request_in'], ['create_merge_request_from', 'update_merge_request']],
    ['developer opens from and updates any', { accessLevel: 30 }, ['create_merge_request_from', 'update_merge_request'], []],
    ['signed-in stranger of a public project may target it (from a fork)', { visibility: 'public' }, ['read_merge_request', 'create_merge_request_in'], ['create_merge_request_from']],
    ['anonymous reads public ones but cannot open any', { userId: null, visibility: 'public' }, ['read_merge_request'], ['create_merge_request_in']],
    ['nobody opens into an archived project', { accessLevel: 40, archived: true }, ['read_merge_request'], ['create_merge_request_in', 'create_merge_request_from']],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = projectAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });

  it.each([
    ['developer, not the author', 30, false, true],
    ['reporter, not the author', 20, false, false],
    ['reporter, the author', 20, true, true],
    ['guest author who can no longer read the code', 10, true, false],
  ] as const)('update: %s → %s', (_name, accessLevel, isAuthor, expected) => {
    expect(canUpdateMergeRequest(projectAbilities(ctx({ accessLevel })), isAuthor)).toBe(expected);
  });
});

describe('groupAbilities', () => {
  it.each([
    ['guest reads', { accessLevel: 10 }, ['read_group'], ['create_projects']],
    ['developer creates projects', { accessLevel: 30 }, ['create_projects'], ['create_subgroup']],
    ['maintainer creates subgroups', { accessLevel: 40 }, ['create_subgroup'], ['admin_group', 'admin_members']],
    ['owner administers', { accessLevel: 50 }, ['admin_group', 'admin_members', 'remove_group'], []],
    ['stranger of a public group only reads', { visibility: 'public' }, ['read_group'], ['create_projects']],
  ] as const)('%s', (_name, overrides, granted, denied) => {
    const abilities = groupAbilities(ctx(overrides as Partial<SubjectContext>));
    for (const action of granted) expect(abilities.has(action), action).toBe(true);
    for (const action of denied) expect(abilities.has(action), action).toBe(false);
  });
});

describe('canAssignAccessLevel', () => {
  it.each([
    [40, false, 30, true],
    [40, false, 40, true],
    [40, false, 50, false],
    [50, false, 50, true],
    [30, false, 40, false],
    [0, true, 50, true],
  ])('caller %i (admin %s) assigning %i → %s', (caller, admin, requested, expected) => {
    expect(canAssignAccessLevel(caller, admin, requested)).toBe(expected);
  });
});

describe('canChangeMember', () => {
  it.each([
    [40, false, 30, true],
    [40, false, 50, false],
    [50, false, 50, true],
    [0, true, 50, true],
  ])('caller %i (admin %s) changing a member at %i → %s', (caller, admin, target, expected) => {
    expect(canChangeMember(caller, admin, target)).toBe(expected);
  });
});
