import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import { creationGrants, grantChanges, matchesProtectionSearch, protectionNameProblem } from './protected-branch-rules.js';

const existing: ProtectedBranch = {
  id: 7,
  project_id: 1,
  name: 'main',
  allow_force_push: false,
  code_owner_approval_required: false,
  rules: [
    { id: 11, kind: 'push', access_level: 40, user_id: null, group_id: null },
    { id: 12, kind: 'push', access_level: null, user_id: 5, group_id: null },
    { id: 13, kind: 'merge', access_level: 40, user_id: null, group_id: null },
  ],
};

describe('creationGrants', () => {
  it('defaults every kind to Maintainers', () => {
    expect(creationGrants({})).toEqual([
      { kind: 'push', access_level: 40 },
      { kind: 'merge', access_level: 40 },
      { kind: 'unprotect', access_level: 40 },
    ]);
  });

  it('takes role levels and items; items alone replace the default role', () => {
    expect(creationGrants({ push_access_level: 30, allowed_to_merge: [{ user_id: 5 }, { group_id: 9 }], unprotect_access_level: 0 })).toEqual([
      { kind: 'push', access_level: 30 },
      { kind: 'merge', user_id: 5 },
      { kind: 'merge', group_id: 9 },
      { kind: 'unprotect', access_level: 0 },
    ]);
  });

  it.each([
    [{ push_access_level: 20 }],
    [{ merge_access_level: 50 }],
    [{ allowed_to_push: [{ access_level: 10 }] }],
    [{ allowed_to_push: [{ user_id: 1, group_id: 2 }] }],
    [{ allowed_to_push: [{}] }],
    [{ allowed_to_push: [{ deploy_key_id: 3 }] }],
  ])('refuses %j', (input) => {
    expect(() => creationGrants(input)).toThrow(ValidationError);
  });
});

describe('grantChanges (PATCH)', () => {
  it('destroys, changes and adds items and replaces role levels', () => {
    expect(
      grantChanges(existing, {
        push_access_level: 30,
        allowed_to_push: [{ id: 12, _destroy: true }, { user_id: 6 }],
        allowed_to_merge: [{ id: 13, access_level: 30 }],
      }),
    ).toEqual({
      roleLevels: [{ kind: 'push', level: 30 }],
      deleteIds: [12, 13],
      insert: [
        { kind: 'push', user_id: 6 },
        { kind: 'merge', access_level: 30 },
      ],
    });
  });

  it('refuses ids of another protection or kind', () => {
    expect(() => grantChanges(existing, { allowed_to_merge: [{ id: 12, _destroy: true }] })).toThrow(ValidationError);
    expect(() => grantChanges(existing, { allowed_to_push: [{ id: 99, _destroy: true }] })).toThrow(ValidationError);
  });
});

describe('names and search', () => {
  it('accepts wildcards and refuses empty names and control characters', () => {
    expect(protectionNameProblem('release/*')).toBeNull();
    expect(protectionNameProblem(' ')).not.toBeNull();
    expect(protectionNameProblem('a\nb')).not.toBeNull();
    expect(protectionNameProblem('a\0b')).not.toBeNull();
  });
  it('searches case-insensitively by substring', () => {
    expect(matchesProtectionSearch('Release/*', 'release')).toBe(true);
    expect(matchesProtectionSearch('main', 'dev')).toBe(false);
    expect(matchesProtectionSearch('main', undefined)).toBe(true);
  });
});
