import { describe, expect, it } from 'vitest';
import { lockedChanges, lockedSettingMessage, resolveApprovalSettings, type StoredApprovalSettings } from './approval-settings.js';

const none: StoredApprovalSettings = {
  allow_author_approval: null,
  allow_committer_approval: null,
  allow_overrides_to_approver_list_per_merge_request: null,
  retain_approvals_on_push: null,
  selective_code_owner_removals: null,
  require_password_to_approve: null,
};
const open = { prevent_merge_requests_author_approval: false, prevent_merge_requests_committers_approval: false, disable_overriding_approvers_per_merge_request: false };

describe('approval settings cascade', () => {
  it.each([
    // name, instance, groups, own, key, expected
    ['nothing chosen: the default', open, [], none, 'allow_committer_approval', { value: true, locked: false, inherited_from: null }],
    ['the project chose', open, [], { ...none, allow_author_approval: true }, 'allow_author_approval', { value: true, locked: false, inherited_from: null }],
    ['the instance prevents author approval: locked at instance', { ...open, prevent_merge_requests_author_approval: true }, [], { ...none, allow_author_approval: true }, 'allow_author_approval', { value: false, locked: true, inherited_from: 'instance' }],
    ['the instance prevents committers', { ...open, prevent_merge_requests_committers_approval: true }, [], none, 'allow_committer_approval', { value: false, locked: true, inherited_from: 'instance' }],
    ['the instance disables overrides', { ...open, disable_overriding_approvers_per_merge_request: true }, [], none, 'allow_overrides_to_approver_list_per_merge_request', { value: false, locked: true, inherited_from: 'instance' }],
    ['a group requires the password: locked at group', open, [{ id: 7, settings: { ...none, require_password_to_approve: true } }], { ...none, require_password_to_approve: false }, 'require_password_to_approve', { value: true, locked: true, inherited_from: 'group', locked_by_group_id: 7 }],
    ['a group removes approvals on push: locked', open, [{ id: 7, settings: { ...none, retain_approvals_on_push: false } }], { ...none, retain_approvals_on_push: true }, 'retain_approvals_on_push', { value: false, locked: true, inherited_from: 'group' }],
    ['the top-level group locks before a subgroup', open, [{ id: 1, settings: { ...none, allow_author_approval: false } }, { id: 2, settings: { ...none, allow_author_approval: false } }], none, 'allow_author_approval', { value: false, locked: true, locked_by_group_id: 1 }],
    ['a group choosing the loose value locks nothing and is inherited', open, [{ id: 7, settings: { ...none, allow_author_approval: true } }], none, 'allow_author_approval', { value: true, locked: false, inherited_from: null }],
    ['the instance wins over a group', { ...open, prevent_merge_requests_author_approval: true }, [{ id: 7, settings: { ...none, allow_author_approval: false } }], none, 'allow_author_approval', { value: false, locked: true, inherited_from: 'instance' }],
    ['selective code owner removals never lock', open, [{ id: 7, settings: { ...none, selective_code_owner_removals: true } }], { ...none, selective_code_owner_removals: false }, 'selective_code_owner_removals', { value: false, locked: false }],
  ] as const)('%s', (_name, instance, groups, own, key, expected) => {
    expect(resolveApprovalSettings({ instance, groups, own })[key]).toMatchObject(expected);
  });

  it('refuses to loosen a locked setting, accepts setting it to the locked value', () => {
    const resolved = resolveApprovalSettings({ instance: { ...open, prevent_merge_requests_author_approval: true }, groups: [], own: none });
    expect(lockedChanges(resolved, { allow_author_approval: true, require_password_to_approve: true })).toEqual(['allow_author_approval']);
    expect(lockedChanges(resolved, { allow_author_approval: false })).toEqual([]);
  });

  it("says where a setting is locked, in GitLab's words", () => {
    expect(lockedSettingMessage({ value: false, locked: true, inherited_from: 'instance' }, null)).toBe('This setting is configured at the instance level and can only be changed by an administrator.');
    expect(lockedSettingMessage({ value: false, locked: true, inherited_from: 'group' }, 'Platform')).toBe('This setting is configured in Platform and can only be changed in the group settings by an administrator or group owner.');
    expect(lockedSettingMessage({ value: false, locked: false, inherited_from: null }, null)).toBeNull();
  });
});
