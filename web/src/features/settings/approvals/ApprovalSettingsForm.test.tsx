// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on } from '../../../test-support/component';
import { renderInApp } from '../../../test-support/component';
import { ApprovalSettingsForm } from './ApprovalSettingsForm';

const open = (value: boolean) => ({ value, locked: false, inherited_from: null });
const ANSWER = {
  allow_author_approval: { value: false, locked: true, inherited_from: 'instance' },
  allow_committer_approval: open(true),
  allow_overrides_to_approver_list_per_merge_request: open(true),
  retain_approvals_on_push: open(false),
  selective_code_owner_removals: open(false),
  require_password_to_approve: { value: true, locked: true, inherited_from: 'group', locked_by_group_id: 4 },
};
const path = '/api/v4/projects/1/merge_request_approval_setting';

describe('the merge request approval settings', () => {
  it('shows locked settings disabled with their sentence, and saves the others', async () => {
    const network = fakeNetwork([
      on('GET', path, () => json(200, ANSWER)),
      on('GET', '/api/v4/groups/4', () => json(200, { id: 4, name: 'Platform' })),
      on('PUT', path, () => json(200, { ...ANSWER, allow_committer_approval: open(false) })),
    ]);
    renderInApp(<ApprovalSettingsForm owner={{ kind: 'project', id: 1 }} />);
    const author = await screen.findByRole('checkbox', { name: 'Prevent approval by merge request creator' });
    expect((author as HTMLInputElement).checked).toBe(true);
    expect((author as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('This setting is configured at the instance level and can only be changed by an administrator.')).toBeTruthy();
    expect(await screen.findByText('This setting is configured in Platform and can only be changed in the group settings by an administrator or group owner.')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Require user password to approve' }) as HTMLInputElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Prevent approvals by users who add commits' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Merge request approval settings have been updated.')).toBeTruthy();
    const put = network.sent.find((request) => request.method === 'PUT');
    expect(put?.body).toEqual({ allow_committer_approval: false, allow_overrides_to_approver_list_per_merge_request: true, retain_approvals_on_push: false, selective_code_owner_removals: false });
  });

  it('says so when loading or saving fails', async () => {
    fakeNetwork([on('GET', path, () => json(500, { message: 'boom' }))]);
    renderInApp(<ApprovalSettingsForm owner={{ kind: 'project', id: 1 }} />);
    expect(await screen.findByText('There was an error loading merge request approval settings.', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('a refused update shows the update error', async () => {
    fakeNetwork([on('GET', '/api/v4/groups/9/merge_request_approval_setting', () => json(200, ANSWER)), on('GET', '/api/v4/groups/4', () => json(200, { id: 4, name: 'Platform' })), on('PUT', '/api/v4/groups/9/merge_request_approval_setting', () => json(403, { message: '403 Forbidden' }))]);
    renderInApp(<ApprovalSettingsForm owner={{ kind: 'group', id: 9 }} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('There was an error updating merge request approval settings.')).toBeTruthy();
  });
});
