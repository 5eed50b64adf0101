import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { apiCall } from './support/api.js';
import { newPage } from './support/browser.js';
import { shot, signInThroughForm } from './support/flows.js';
import { mergeWidgetHarness, type Repo } from './support/merge-widget.js';

/**
 * Merge request approvals in the browser, against a real server: a rule asking two named
 * users, the merge blocked until both approve, Revoke, the password modal, Request changes
 * from Submit review, and a setting the instance locks shown disabled on the settings page.
 * Root (an administrator) authors; Ada and Bob are the rule's approvers, Developers.
 */
describe('merge request approvals', () => {
  const h = mergeWidgetHarness();
  const { rest, checks, createRepo, commitOn, openMergeRequest, visit, settled } = h;
  let ada: TestUser;
  let bob: TestUser;
  let adaPage: Page;

  const approvals = (on: Page) => h.widget(on).getByRole('group', { name: 'Approvals' });
  const as = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) => apiCall(h.server.url, user.token, method, path, body);

  beforeAll(async () => {
    ada = await h.server.createUser({ username: 'ada', name: 'Ada Lovelace' });
    bob = await h.server.createUser({ username: 'bob', name: 'Bob Builder' });
    adaPage = await newPage(h.browser, h.server.url);
    await signInThroughForm(adaPage, { username: 'ada', password: ada.password });
  });

  async function projectWithRule(path: string): Promise<Repo> {
    const repo = await createRepo(path);
    for (const user of [ada, bob]) await rest('POST', `/projects/${repo.id}/members`, { user_id: user.id, access_level: 30 });
    await rest('POST', `/projects/${repo.id}/approval_rules`, { name: 'Two reviewers', approvals_required: 2, user_ids: [ada.id, bob.id] });
    return repo;
  }

  /** Blocked by approvals or requested changes, which can still pass by themselves: no plain Merge, as GitLab offers 'Set to auto-merge' instead. */
  async function offersAutoMergeOnly() {
    await h.content().getByRole('button', { name: 'Set to auto-merge' }).waitFor({ timeout: 15_000 });
    expect(await h.content().getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
  }

  it('blocks the merge until both named approvers approve; Revoke blocks it again', async () => {
    const repo = await projectWithRule('two-approvals');
    await commitOn(repo, 'feature', { 'feature.txt': 'new\n' }, 'Add a feature');
    const iid = await openMergeRequest(repo, 'feature', 'Add a feature');
    expect(await settled(repo, iid)).toBe('not_approved');

    await visit(repo, iid);
    await approvals(h.page).getByText('Requires 2 approvals from Two reviewers.').waitFor();
    await checks().getByText('All required approvals must be given.').waitFor();
    await offersAutoMergeOnly();
    // the author may not approve: no Approve button for root
    expect(await approvals(h.page).getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    await approvals(h.page).getByRole('button', { name: 'Expand eligible approvers' }).click();
    await approvals(h.page).getByRole('table').getByText('0 of 2').waitFor();
    await h.page.evaluate(() => window.scrollTo(0, 0));
    await shot(h.page, 'approvals', 'two-required');

    // Ada approves in her browser; root's widget hears it without a reload
    await visit(repo, iid, adaPage);
    await approvals(adaPage).getByRole('button', { name: 'Approve', exact: true }).click();
    await approvals(adaPage).getByText('Approved by you').waitFor();
    await approvals(adaPage).getByRole('button', { name: 'Revoke approval' }).waitFor();
    await approvals(h.page).getByText('Requires 1 approval from Two reviewers.').waitFor({ timeout: 15_000 });
    await offersAutoMergeOnly();
    await adaPage.evaluate(() => window.scrollTo(0, 0));
    await shot(adaPage, 'approvals', 'approved-by-you');

    // Bob's approval (through the API) makes it mergeable
    expect((await as(bob, 'POST', `/projects/${repo.id}/merge_requests/${iid}/approve`)).status).toBe(201);
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
    await approvals(h.page).getByText('Approved by').first().waitFor();
    expect(await h.content().getByRole('button', { name: 'Merge', exact: true }).isEnabled()).toBe(true);
    await h.page.evaluate(() => window.scrollTo(0, 0));
    await shot(h.page, 'approvals', 'approved');

    // Ada revokes: blocked again
    await approvals(adaPage).getByRole('button', { name: 'Revoke approval' }).click();
    await approvals(adaPage).getByRole('button', { name: 'Approve', exact: true }).waitFor();
    await checks().getByText('All required approvals must be given.').waitFor({ timeout: 15_000 });
    await approvals(h.page).getByText('Requires 1 approval from Two reviewers.').waitFor();
  });

  it('asks for the password when the project requires it, and refuses a wrong one', async () => {
    const repo = await projectWithRule('password');
    await rest('PUT', `/projects/${repo.id}/merge_request_approval_setting`, { require_password_to_approve: true });
    await commitOn(repo, 'guarded', { 'guarded.txt': 'guarded\n' }, 'Guarded change');
    const iid = await openMergeRequest(repo, 'guarded', 'Guarded change');
    await settled(repo, iid);
    await visit(repo, iid, adaPage);
    await approvals(adaPage).getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = adaPage.getByRole('dialog', { name: 'Enter your password to approve' });
    await dialog.getByLabel('Your password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.getByText('Approval password is invalid.').waitFor();
    await shot(adaPage, 'approvals', 'password-invalid');
    await dialog.getByLabel('Your password').fill(ada.password);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await approvals(adaPage).getByText('Approved by you').waitFor({ timeout: 15_000 });
    expect(await dialog.count()).toBe(0);
  });

  it("'Assign reviewers' adds eligible approvers who are not reviewers yet", async () => {
    const repo = await projectWithRule('assign-reviewers');
    await commitOn(repo, 'assign', { 'assign.txt': 'assign\n' }, 'Needs reviewers');
    const iid = await openMergeRequest(repo, 'assign', 'Needs reviewers');
    await settled(repo, iid);
    await visit(repo, iid);
    await approvals(h.page).getByRole('button', { name: 'Assign reviewers' }).click();
    const dialog = h.page.getByRole('dialog', { name: 'Assign reviewers' });
    // root wrote the change: only Ada and Bob are offered
    expect(await dialog.getByRole('checkbox').count()).toBe(2);
    await dialog.getByRole('checkbox', { name: /Ada Lovelace/ }).check();
    await shot(h.page, 'approvals', 'assign-reviewers');
    await dialog.getByRole('button', { name: 'Assign reviewers' }).click();
    await dialog.waitFor({ state: 'detached' });
    await h.page.getByRole('complementary', { name: 'Merge request details' }).getByText('Ada Lovelace').waitFor();
    const reviewers = await rest<Array<{ user: { username: string } }>>('GET', `/projects/${repo.id}/merge_requests/${iid}/reviewers`);
    expect(reviewers.map((reviewer) => reviewer.user.username)).toEqual(['ada']);
    // Bob is still offered; once he reviews too, the action goes away
    await approvals(h.page).getByRole('button', { name: 'Assign reviewers' }).click();
    await dialog.getByRole('checkbox', { name: /Bob Builder/ }).check();
    expect(await dialog.getByRole('checkbox').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Assign reviewers' }).click();
    await dialog.waitFor({ state: 'detached' });
    await approvals(h.page).getByRole('button', { name: 'Assign reviewers' }).waitFor({ state: 'detached' });
  });

  it('Submit review with Approve asks for the password when the project requires it', async () => {
    const repo = await projectWithRule('review-password');
    await rest('PUT', `/projects/${repo.id}/merge_request_approval_setting`, { require_password_to_approve: true });
    await commitOn(repo, 'reviewed', { 'reviewed.txt': 'reviewed\n' }, 'Reviewed change');
    const iid = await openMergeRequest(repo, 'reviewed', 'Reviewed change', { reviewer_ids: [ada.id] });
    await settled(repo, iid);
    expect((await as(ada, 'POST', `/projects/${repo.id}/merge_requests/${iid}/draft_notes`, { note: 'Fine by me.' })).status).toBe(201);
    await visit(repo, iid, adaPage);
    await adaPage.getByRole('region', { name: 'Review' }).getByRole('button', { name: 'Submit review' }).click();
    const dialog = adaPage.getByRole('dialog', { name: 'Submit review' });
    await dialog.getByRole('radio', { name: /^Approve/ }).check();
    await dialog.getByLabel('Your password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog.getByText('Approval password is invalid.').waitFor();
    await shot(adaPage, 'approvals', 'review-password-invalid');
    // nothing was published with the wrong password
    expect(((await as(ada, 'GET', `/projects/${repo.id}/merge_requests/${iid}/draft_notes`)).body as unknown[]).length).toBe(1);
    await dialog.getByLabel('Your password').fill(ada.password);
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog.waitFor({ state: 'detached' });
    await approvals(adaPage).getByText('Approved by you').waitFor({ timeout: 15_000 });
  });

  it('Submit review with Request changes blocks the merge', async () => {
    const repo = await createRepo('request-changes');
    await rest('POST', `/projects/${repo.id}/members`, { user_id: ada.id, access_level: 30 });
    await commitOn(repo, 'risky', { 'risky.txt': 'risky\n' }, 'Risky change');
    const iid = await openMergeRequest(repo, 'risky', 'Risky change', { reviewer_ids: [ada.id] });
    expect(await settled(repo, iid)).toBe('mergeable');
    expect((await as(ada, 'POST', `/projects/${repo.id}/merge_requests/${iid}/draft_notes`, { note: 'This needs tests.' })).status).toBe(201);

    await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    await visit(repo, iid, adaPage);
    const bar = adaPage.getByRole('region', { name: 'Review' });
    await bar.getByRole('button', { name: 'Submit review' }).click();
    const dialog = adaPage.getByRole('dialog', { name: 'Submit review' });
    await dialog.getByLabel('Summary comment (optional)').fill('Please add tests first.');
    await dialog.getByRole('radio', { name: 'Request changes' }).check();
    await shot(adaPage, 'approvals', 'request-changes-dialog');
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog.waitFor({ state: 'detached' });

    await checks().getByText('Change requests must be approved by the requesting user.').waitFor({ timeout: 15_000 });
    await offersAutoMergeOnly();
    expect((await rest<{ detailed_merge_status: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`)).detailed_merge_status).toBe('requested_changes');
    await h.page.evaluate(() => window.scrollTo(0, 0));
    await shot(h.page, 'approvals', 'changes-requested');
  });

  it('shows a setting the instance locks disabled, with its sentence; rules are added on the settings page', async () => {
    const repo = await createRepo('settings-page');
    await rest('POST', `/projects/${repo.id}/members`, { user_id: ada.id, access_level: 30 });
    await rest('PUT', '/application/settings', { prevent_merge_requests_author_approval: true });
    try {
      await h.page.goto(`/${repo.fullPath}/-/settings/merge_requests`);
      const section = h.page.getByRole('region', { name: 'Merge request approvals' });
      const author = section.getByRole('checkbox', { name: 'Prevent approval by merge request creator' });
      await author.waitFor();
      expect(await author.isDisabled()).toBe(true);
      expect(await author.isChecked()).toBe(true);
      await section.getByText('This setting is configured at the instance level and can only be changed by an administrator.').waitFor();

      // a rule through the dialog
      await section.getByRole('button', { name: 'Add approval rule' }).click();
      const dialog = h.page.getByRole('dialog', { name: 'Add approval rule' });
      await dialog.getByLabel('Rule name').fill('Backend');
      await dialog.getByLabel('Required number of approvals').fill('1');
      // The picker's list can re-render under the click while its members load (a loaded
      // machine): pick again until the anchor names the choice.
      const approvers = dialog.getByRole('button', { name: 'Approver users' });
      for (let attempt = 1; !((await approvers.textContent()) ?? '').includes('Ada Lovelace'); attempt++) {
        if (attempt > 5) throw new Error('Ada Lovelace could not be picked as an approver');
        await approvers.click();
        await h.page.getByRole('option', { name: /Ada Lovelace/ }).click();
        await h.page.keyboard.press('Escape');
        await h.page.getByRole('option', { name: /Ada Lovelace/ }).waitFor({ state: 'detached' });
      }
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      const rules = section.getByRole('table', { name: 'Approval rules' });
      await rules.getByRole('cell', { name: 'Backend', exact: true }).waitFor();
      await rules.getByRole('cell', { name: 'Ada Lovelace' }).waitFor();
      expect((await rest<{ name: string; users: { username: string }[] }[]>('GET', `/projects/${repo.id}/approval_rules`)).map((rule) => [rule.name, rule.users.map((user) => user.username)])).toEqual([['Backend', ['ada']]]);

      // an unlocked setting saves
      await section.getByRole('checkbox', { name: 'Require user password to approve' }).check();
      await section.getByRole('button', { name: 'Save changes' }).click();
      await section.getByText('Merge request approval settings have been updated.').waitFor();
      expect((await rest<{ require_password_to_approve: { value: boolean } }>('GET', `/projects/${repo.id}/merge_request_approval_setting`)).require_password_to_approve.value).toBe(true);
      await shot(h.page, 'approvals', 'settings-locked');
    } finally {
      await rest('PUT', '/application/settings', { prevent_merge_requests_author_approval: false });
    }
  });
});
