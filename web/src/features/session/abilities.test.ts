import { describe, expect, it } from 'vitest';
import { DEVELOPER, OWNER, REPORTER } from '../../lib/permissions';
import { userCanUpdateMergeRequest, userProjectLevel } from './abilities';

const developerProject = { permissions: { project_access: { access_level: DEVELOPER, notification_level: 3 }, group_access: null } };
const publicProject = { permissions: { project_access: null, group_access: null } };

describe('userProjectLevel', () => {
  it('is 0 for a signed-out visitor, even if the entity carries a level', () => {
    expect(userProjectLevel(developerProject, null)).toBe(0);
    expect(userProjectLevel(publicProject, null)).toBe(0);
  });
  it("is the member's level, and Owner for an admin", () => {
    expect(userProjectLevel(developerProject, { is_admin: false })).toBe(DEVELOPER);
    expect(userProjectLevel(publicProject, { is_admin: true })).toBe(OWNER);
    expect(userProjectLevel(publicProject, { is_admin: false })).toBe(0);
  });
});

describe('userCanUpdateMergeRequest', () => {
  const reporterProject = { permissions: { project_access: { access_level: REPORTER, notification_level: 3 }, group_access: null } };
  it('never lets a visitor edit, whatever the author', () => {
    expect(userCanUpdateMergeRequest(developerProject, null, 1)).toBe(false);
    expect(userCanUpdateMergeRequest(developerProject, null, null)).toBe(false);
    expect(userCanUpdateMergeRequest(developerProject, null, undefined)).toBe(false);
  });
  it('lets Developers and the author edit', () => {
    expect(userCanUpdateMergeRequest(developerProject, { id: 2, is_admin: false }, 1)).toBe(true);
    expect(userCanUpdateMergeRequest(reporterProject, { id: 1, is_admin: false }, 1)).toBe(true);
    expect(userCanUpdateMergeRequest(reporterProject, { id: 2, is_admin: false }, 1)).toBe(false);
  });
});
