/**
 * Merge request approval settings as GitLab's MergeRequestApprovalSetting API answers them (the
 * group and project `merge_request_approval_setting`), shared by the server and the settings pages.
 */
export const APPROVAL_SETTING_KEYS = [
  'allow_author_approval',
  'allow_committer_approval',
  'allow_overrides_to_approver_list_per_merge_request',
  'retain_approvals_on_push',
  'selective_code_owner_removals',
  'require_password_to_approve',
] as const;
export type ApprovalSettingKey = (typeof APPROVAL_SETTING_KEYS)[number];

export interface ApprovalSettingValue {
  value: boolean;
  locked: boolean;
  inherited_from: 'instance' | 'group' | null;
  /** the group whose choice locks it (Tributary's addition, for "configured in {groupName}") */
  locked_by_group_id?: number;
}

export type ApprovalSettingsAnswer = Record<ApprovalSettingKey, ApprovalSettingValue>;

export const LOCKED_AT_INSTANCE = 'This setting is configured at the instance level and can only be changed by an administrator.';
export const LOCKED_IN_GROUP = 'This setting is configured in {groupName} and can only be changed in the group settings by an administrator or group owner.';

/** The page's sentence for a locked setting (GitLab's wording), or null when it is not locked. */
export function lockedSettingMessage(setting: Pick<ApprovalSettingValue, 'locked' | 'inherited_from'>, groupName: string | null): string | null {
  if (!setting.locked) return null;
  if (setting.inherited_from === 'instance') return LOCKED_AT_INSTANCE;
  return LOCKED_IN_GROUP.replace('{groupName}', groupName ?? '');
}
