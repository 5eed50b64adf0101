import type { ApprovalSettingsAnswer } from '@tributary/contracts/approval-settings';
import { lockedSettingMessage } from '@tributary/contracts/approval-settings';
import { describe, expect, it } from 'vitest';
import { checkedFromAnswer, updateFromChecked } from './setting-fields';

const open = { value: true, locked: false, inherited_from: null };
const answer: ApprovalSettingsAnswer = {
  allow_author_approval: { value: false, locked: true, inherited_from: 'instance' },
  allow_committer_approval: open,
  allow_overrides_to_approver_list_per_merge_request: open,
  retain_approvals_on_push: { value: false, locked: false, inherited_from: null },
  selective_code_owner_removals: { value: false, locked: false, inherited_from: null },
  require_password_to_approve: { value: true, locked: true, inherited_from: 'group', locked_by_group_id: 4 },
};

describe('approval settings checkboxes', () => {
  it('a checkbox says the strict choice', () => {
    expect(checkedFromAnswer(answer)).toEqual({
      allow_author_approval: true,
      allow_committer_approval: false,
      allow_overrides_to_approver_list_per_merge_request: false,
      retain_approvals_on_push: true,
      selective_code_owner_removals: false,
      require_password_to_approve: true,
    });
  });

  it('sends only unlocked settings, in the API’s sense', () => {
    const checked = { ...checkedFromAnswer(answer), allow_committer_approval: true, allow_author_approval: false };
    expect(updateFromChecked(checked, answer)).toEqual({
      allow_committer_approval: false,
      allow_overrides_to_approver_list_per_merge_request: true,
      retain_approvals_on_push: false,
      selective_code_owner_removals: false,
    });
  });

  it.each([
    [answer.allow_author_approval, null, 'This setting is configured at the instance level and can only be changed by an administrator.'],
    [answer.require_password_to_approve, 'Platform', 'This setting is configured in Platform and can only be changed in the group settings by an administrator or group owner.'],
    [open, 'Platform', null],
  ])('the lock sentence', (setting, group, sentence) => {
    expect(lockedSettingMessage(setting, group)).toBe(sentence);
  });
});
