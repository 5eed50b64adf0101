/**
 * Approval settings cascade from the instance through the groups to a project (GitLab's
 * ComplianceManagement::MergeRequestApprovalSettings::Resolver). Each setting has a loose and a
 * strict value; a level above that chose the strict value locks it for every level below
 * (which then reads the strict value, `locked: true`, and where the lock comes from). A level
 * that has not chosen takes GitLab's project default. Pure.
 */
import { lockedSettingMessage as sharedLockedSettingMessage } from '@tributary/contracts';
import type { EffectiveApprovalSettings } from './approval-rule.js';

/** The settings of GitLab's merge_request_approval_setting API, in its "allow" spelling. */
export const APPROVAL_SETTING_KEYS = [
  'allow_author_approval',
  'allow_committer_approval',
  'allow_overrides_to_approver_list_per_merge_request',
  'retain_approvals_on_push',
  'selective_code_owner_removals',
  'require_password_to_approve',
] as const;
export type ApprovalSettingKey = (typeof APPROVAL_SETTING_KEYS)[number];

/** What one level stored: a choice, or null (not chosen there). */
export type StoredApprovalSettings = Record<ApprovalSettingKey, boolean | null>;

/** The instance's three restrictions (GitLab's application settings). */
export interface InstanceApprovalSettings {
  prevent_merge_requests_author_approval: boolean;
  prevent_merge_requests_committers_approval: boolean;
  disable_overriding_approvers_per_merge_request: boolean;
}

/** The value that locks the levels below; null: the setting never locks (a preference only). */
const STRICT: Record<ApprovalSettingKey, boolean | null> = {
  allow_author_approval: false,
  allow_committer_approval: false,
  allow_overrides_to_approver_list_per_merge_request: false,
  retain_approvals_on_push: false,
  selective_code_owner_removals: null,
  require_password_to_approve: true,
};

/** GitLab's project defaults: authors may not approve, committers may, overrides allowed, approvals reset on push. */
export const DEFAULT_APPROVAL_SETTINGS: Record<ApprovalSettingKey, boolean> = {
  allow_author_approval: false,
  allow_committer_approval: true,
  allow_overrides_to_approver_list_per_merge_request: true,
  retain_approvals_on_push: false,
  selective_code_owner_removals: false,
  require_password_to_approve: false,
};

export type LockOrigin = 'instance' | 'group';

/** GitLab's entity for one setting. */
export interface ResolvedSetting {
  value: boolean;
  locked: boolean;
  inherited_from: LockOrigin | null;
  /** the group whose choice locks it (for the page's "configured in {groupName}") */
  locked_by_group_id?: number | null;
}
export type ResolvedApprovalSettings = Record<ApprovalSettingKey, ResolvedSetting>;

/** The instance's restriction of a key, as a stored "allow" choice. */
function instanceChoice(instance: InstanceApprovalSettings, key: ApprovalSettingKey): boolean | null {
  switch (key) {
    case 'allow_author_approval':
      return instance.prevent_merge_requests_author_approval ? false : null;
    case 'allow_committer_approval':
      return instance.prevent_merge_requests_committers_approval ? false : null;
    case 'allow_overrides_to_approver_list_per_merge_request':
      return instance.disable_overriding_approvers_per_merge_request ? false : null;
    default:
      return null;
  }
}

export interface SettingLevels {
  instance: InstanceApprovalSettings;
  /** the ancestor groups' stored settings, top-level group first */
  groups: ReadonlyArray<{ id: number; settings: StoredApprovalSettings }>;
  /** the level being resolved (a group's own or a project's); absent for the instance */
  own: StoredApprovalSettings | null;
}

/**
 * The settings as seen at `own`'s level: the first level above that chose a key's strict value
 * locks it; otherwise `own`'s choice, else the nearest choice above, else the default.
 */
export function resolveApprovalSettings(levels: SettingLevels): ResolvedApprovalSettings {
  const result = {} as ResolvedApprovalSettings;
  for (const key of APPROVAL_SETTING_KEYS) {
    const strict = STRICT[key];
    if (strict !== null && instanceChoice(levels.instance, key) === strict) {
      result[key] = { value: strict, locked: true, inherited_from: 'instance', locked_by_group_id: null };
      continue;
    }
    const lockingGroup = strict === null ? undefined : levels.groups.find((group) => group.settings[key] === strict);
    if (lockingGroup) {
      result[key] = { value: strict!, locked: true, inherited_from: 'group', locked_by_group_id: lockingGroup.id };
      continue;
    }
    const inherited = [...levels.groups].reverse().find((group) => group.settings[key] !== null)?.settings[key];
    result[key] = { value: levels.own?.[key] ?? inherited ?? DEFAULT_APPROVAL_SETTINGS[key], locked: false, inherited_from: null, locked_by_group_id: null };
  }
  return result;
}

/**
 * The keys of `changes` that try to loosen a locked setting (to a value other than the
 * locked one). GitLab refuses such an update as a whole. Pure.
 */
export function lockedChanges(resolved: ResolvedApprovalSettings, changes: Partial<Record<ApprovalSettingKey, boolean>>): ApprovalSettingKey[] {
  return APPROVAL_SETTING_KEYS.filter((key) => changes[key] !== undefined && resolved[key].locked && changes[key] !== resolved[key].value);
}

/** The project's effective settings for the approval rules. */
export function effectiveSettings(resolved: ResolvedApprovalSettings, approvalsBeforeMerge: number): EffectiveApprovalSettings {
  return {
    allowAuthorApproval: resolved.allow_author_approval.value,
    allowCommitterApproval: resolved.allow_committer_approval.value,
    allowOverridesToApproverListPerMergeRequest: resolved.allow_overrides_to_approver_list_per_merge_request.value,
    retainApprovalsOnPush: resolved.retain_approvals_on_push.value,
    selectiveCodeOwnerRemovals: resolved.selective_code_owner_removals.value,
    requirePasswordToApprove: resolved.require_password_to_approve.value,
    approvalsBeforeMerge,
  };
}

/** The page's sentence for a locked setting (GitLab's wording; the web app's settings pages say the same). */
export function lockedSettingMessage(setting: ResolvedSetting, groupName: string | null): string | null {
  return sharedLockedSettingMessage(setting, groupName);
}
