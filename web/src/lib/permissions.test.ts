import { describe, expect, it } from 'vitest';
import { DEVELOPER, MAINTAINER, OWNER, REPORTER, assignableLevels, canDeleteBranch, canUpdateMergeRequest, projectAccessLevel } from './permissions';

describe('projectAccessLevel', () => {
  it('takes the higher of project and group access', () => {
    expect(projectAccessLevel({ permissions: { project_access: { access_level: 30 }, group_access: { access_level: 40 } } })).toBe(40);
    expect(projectAccessLevel({ permissions: { project_access: null, group_access: null } })).toBe(0);
    expect(projectAccessLevel({})).toBe(0);
    expect(projectAccessLevel({}, true)).toBe(OWNER);
  });
});

describe('canDeleteBranch', () => {
  it.each([
    ['default branch, owner', { default: true, protected: false, can_push: true }, OWNER, false],
    ['protected, developer', { default: false, protected: true, can_push: true }, DEVELOPER, false],
    ['protected, maintainer', { default: false, protected: true, can_push: true }, MAINTAINER, true],
    ['plain, developer', { default: false, protected: false, can_push: true }, DEVELOPER, true],
    ['plain, reporter', { default: false, protected: false, can_push: false }, REPORTER, false],
  ])('%s', (_name, branch, level, expected) => expect(canDeleteBranch(branch, level)).toBe(expected));
});

describe('assignableLevels', () => {
  const all = [10, 20, 30, 40, 50];
  it('lets owners assign every level and maintainers all but Owner', () => {
    expect(assignableLevels(all, OWNER)).toEqual(all);
    expect(assignableLevels(all, MAINTAINER)).toEqual([10, 20, 30, 40]);
  });
});

describe('canUpdateMergeRequest', () => {
  it('lets Developers and the author edit', () => {
    expect(canUpdateMergeRequest(DEVELOPER, 1, 2)).toBe(true);
    expect(canUpdateMergeRequest(REPORTER, 2, 2)).toBe(true);
    expect(canUpdateMergeRequest(REPORTER, 1, 2)).toBe(false);
    expect(canUpdateMergeRequest(0, null, 2)).toBe(false);
  });
});
