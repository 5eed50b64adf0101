import type { ApprovalSettingKey, ApprovalSettingsAnswer } from '@tributary/contracts/approval-settings';

export const SETTINGS_MSG = {
  sectionTitle: 'Merge request approvals',
  sectionDescription: 'Define approval rules and settings to ensure separation of duties for new merge requests.',
  settingsHeading: 'Approval settings',
  loadError: 'There was an error loading merge request approval settings.',
  updateError: 'There was an error updating merge request approval settings.',
  updated: 'Merge request approval settings have been updated.',
} as const;

/**
 * The page's checkboxes, as GitLab's approval settings word them: each says the strict choice, so
 * a checked box is the API's `allow_*` / `retain_*` false (`inverted`).
 */
export const SETTING_FIELDS: { key: ApprovalSettingKey; label: string; inverted: boolean; projectOnly?: boolean }[] = [
  { key: 'allow_author_approval', label: 'Prevent approval by merge request creator', inverted: true },
  { key: 'allow_committer_approval', label: 'Prevent approvals by users who add commits', inverted: true },
  { key: 'allow_overrides_to_approver_list_per_merge_request', label: 'Prevent editing approval rules in merge requests', inverted: true },
  { key: 'require_password_to_approve', label: 'Require user password to approve', inverted: false },
  { key: 'retain_approvals_on_push', label: 'Remove all approvals when commits are added to the source branch', inverted: true },
  { key: 'selective_code_owner_removals', label: 'Remove approvals by Code Owners if their files changed', inverted: false },
];

/** The checkboxes' state from the API's answer. */
export function checkedFromAnswer(answer: ApprovalSettingsAnswer): Record<ApprovalSettingKey, boolean> {
  return Object.fromEntries(SETTING_FIELDS.map(({ key, inverted }) => [key, inverted ? !answer[key].value : answer[key].value])) as Record<ApprovalSettingKey, boolean>;
}

/** What PUT sends: the unlocked settings only (a locked one cannot change here). */
export function updateFromChecked(checked: Record<ApprovalSettingKey, boolean>, answer: ApprovalSettingsAnswer): Partial<Record<ApprovalSettingKey, boolean>> {
  const body: Partial<Record<ApprovalSettingKey, boolean>> = {};
  for (const { key, inverted } of SETTING_FIELDS) if (!answer[key].locked) body[key] = inverted ? !checked[key] : checked[key];
  return body;
}
