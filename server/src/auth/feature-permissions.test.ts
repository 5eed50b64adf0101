import { describe, expect, it } from 'vitest';
import { AccessLevel, FEATURE_LEVELS, type FeatureLevelName, type Visibility } from '@tributary/contracts';
import { featureAvailable, projectAbilities, type ProjectAction, type SubjectContext } from './permissions.js';

/**
 * Project features over roles: GitLab's feature_available? (disabled: nobody; private: members
 * of the feature's minimum role; enabled: whoever sees the project) and what it takes from the
 * abilities every surface asks for.
 */
const ROLES = {
  anonymous: { userId: null, accessLevel: 0 },
  stranger: { userId: 9, accessLevel: 0 },
  guest: { userId: 9, accessLevel: AccessLevel.Guest },
  reporter: { userId: 9, accessLevel: AccessLevel.Reporter },
  developer: { userId: 9, accessLevel: AccessLevel.Developer },
  maintainer: { userId: 9, accessLevel: AccessLevel.Maintainer },
  admin: { userId: 1, accessLevel: 0, isAdmin: true },
} as const;
type Role = keyof typeof ROLES;

const ctx = (role: Role, visibility: Visibility, levels: Record<string, FeatureLevelName>): SubjectContext => ({
  isAdmin: false,
  visibility,
  ...ROLES[role],
  features: Object.fromEntries(Object.entries(levels).map(([field, name]) => [field, FEATURE_LEVELS[name]])),
});

const can = (role: Role, visibility: Visibility, levels: Record<string, FeatureLevelName>, action: ProjectAction) =>
  projectAbilities(ctx(role, visibility, levels)).has(action);

describe('featureAvailable', () => {
  it.each([
    // feature, level, visibility, role, expected
    ['merge_requests', 'disabled', 'public', 'admin', false],
    ['merge_requests', 'private', 'public', 'guest', false],
    ['merge_requests', 'private', 'public', 'reporter', true],
    ['merge_requests', 'private', 'public', 'admin', true],
    ['merge_requests', 'enabled', 'public', 'anonymous', true],
    ['repository', 'private', 'public', 'stranger', false],
    ['repository', 'private', 'public', 'guest', true],
    ['repository', 'private', 'private', 'guest', false],
    ['repository', 'private', 'private', 'reporter', true],
    ['builds', 'private', 'internal', 'guest', true],
  ] as const)('%s %s on a %s project, %s → %s', (feature, level, visibility, role, expected) => {
    expect(featureAvailable(ctx(role, visibility, { [`${feature}_access_level`]: level }), feature)).toBe(expected);
  });
});

describe('abilities over roles × feature levels', () => {
  const roles = Object.keys(ROLES) as Role[];

  it.each(roles)('merge requests disabled: %s reads and opens no merge request, the code stays', (role) => {
    const levels = { merge_requests_access_level: 'disabled' } as const;
    for (const action of ['read_merge_request', 'create_merge_request_in', 'create_merge_request_from', 'update_merge_request', 'create_note'] as const) {
      expect(can(role, 'public', levels, action), action).toBe(false);
    }
    expect(can(role, 'public', levels, 'download_code')).toBe(true);
    expect(can(role, 'public', levels, 'push_code')).toBe(role === 'developer' || role === 'maintainer' || role === 'admin');
  });

  it.each([
    ['anonymous', false],
    ['stranger', false],
    ['guest', false],
    ['reporter', true],
    ['developer', true],
    ['admin', true],
  ] as const)('merge requests for members only on a public project: %s reads them → %s', (role, expected) => {
    expect(can(role, 'public', { merge_requests_access_level: 'private' }, 'read_merge_request')).toBe(expected);
  });

  it.each([
    ['anonymous', false, false],
    ['stranger', false, false],
    ['guest', true, false],
    ['reporter', true, false],
    ['developer', true, true],
    ['admin', true, true],
    // typed as rows of any role, so `reads` does not narrow `role` below
  ] as Array<[Role, boolean, boolean]>)('repository for members only on a public project: %s reads code → %s, pushes → %s', (role, reads, pushes) => {
    const levels = { repository_access_level: 'private', merge_requests_access_level: 'private' } as const;
    expect(can(role, 'public', levels, 'download_code')).toBe(reads);
    expect(can(role, 'public', levels, 'fork_project')).toBe(reads && role !== 'anonymous');
    expect(can(role, 'public', levels, 'push_code')).toBe(pushes);
    expect(can(role, 'public', levels, 'read_project')).toBe(true);
  });

  it.each(roles)('repository disabled: %s has no code, push, branch, fork or merge request, but sees the project', (role) => {
    const levels = { repository_access_level: 'disabled', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' } as const;
    for (const action of ['download_code', 'push_code', 'create_branch', 'delete_branch', 'fork_project', 'read_merge_request', 'read_build'] as const) {
      expect(can(role, 'public', levels, action), action).toBe(false);
    }
    expect(can(role, 'public', levels, 'read_project')).toBe(true);
  });

  it.each([
    ['anonymous', 'enabled', true, true],
    ['anonymous', 'enabled', false, false],
    ['guest', 'enabled', false, false],
    ['reporter', 'enabled', false, true],
    ['reporter', 'disabled', true, false],
    ['guest', 'private', true, true],
    ['stranger', 'private', true, false],
  ] as const)('builds: %s, builds %s, public_builds %s → reads pipelines %s', (role, level, publicBuilds, expected) => {
    const context = ctx(role, 'public', { builds_access_level: level });
    context.features = { ...context.features, public_builds: publicBuilds };
    expect(projectAbilities(context).has('read_pipeline')).toBe(expected);
  });

  it('push rules are managed by Maintainers and above', () => {
    expect(can('developer', 'private', {}, 'admin_push_rules')).toBe(false);
    expect(can('maintainer', 'private', {}, 'admin_push_rules')).toBe(true);
  });
});
