import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeWidgetHarness, snap } from './support/merge-widget.js';

/**
 * The merge request page's rough edges: 'Merge details' only after a merge or close, one
 * banner for a rebase that failed (and none after the conflict is pushed away), the squash
 * help as a popover, the sidebar's squash line after a squash merge, and the project's
 * 'Merge requests' tab counting open requests.
 */
describe('merge request page polish', () => {
  const h = mergeWidgetHarness();
  const { rest, checks, createRepo, commitOn, openMergeRequest, visit, settled } = h;
  let page: Page;
  beforeAll(() => {
    ({ page } = h);
  });

  it('in conflict: no Merge details; a failed rebase shows only the red banner, gone after a push fixes it', async () => {
    const repo = await createRepo('polish-conflict');
    await commitOn(repo, 'clash', { 'app.txt': 'the branch rewrote this\n' }, 'Rewrite on the branch');
    await commitOn(repo, 'main', { 'app.txt': 'main rewrote this\n' }, 'Rewrite on main');
    const iid = await openMergeRequest(repo, 'clash', 'Clash');
    expect(await settled(repo, iid)).toBe('conflict');
    const area = await visit(repo, iid);
    await checks().getByText('Merge conflicts must be resolved.').waitFor();
    expect(await area.getByText('Merge details').count()).toBe(0);

    // the project's tab counts the open request
    await expect.poll(() => page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: /Merge requests/ }).textContent()).toMatch(/1/);

    await area.getByRole('button', { name: 'Rebase source branch' }).click();
    await page.getByRole('dialog', { name: 'Rebase source branch?' }).getByRole('button', { name: 'Rebase' }).click();
    const banner = area.getByRole('alert').filter({ hasText: 'Rebase failed. Please rebase locally. Try again.' });
    await banner.waitFor({ timeout: 15_000 });
    expect(await area.getByText(/Scheduled a rebase of branch/).count()).toBe(0);
    await snap(page, 'polish-rebase-failed');

    // the conflict resolved by a push: after a reload, no red banner
    await commitOn(repo, 'clash', { 'app.txt': 'main rewrote this\n' }, 'Take main’s version', 'main');
    await expect.poll(async () => (await rest<{ merge_error: string | null }>('GET', `/projects/${repo.id}/merge_requests/${iid}`)).merge_error, { timeout: 15_000 }).toBeNull();
    await settled(repo, iid);
    const again = await visit(repo, iid);
    await checks().waitFor();
    expect(await again.getByText(/Rebase failed/).count()).toBe(0);
  });

  it('the squash help is a popover that Escape closes; after a squash merge the sidebar says the commits were squashed', async () => {
    const repo = await createRepo('polish-squash');
    await commitOn(repo, 'squashy', { 'one.txt': '1\n' }, 'One');
    await commitOn(repo, 'squashy', { 'two.txt': '2\n' }, 'Two');
    const iid = await openMergeRequest(repo, 'squashy', 'Squash me');
    expect(await settled(repo, iid)).toBe('mergeable');
    const area = await visit(repo, iid);
    const sidebar = page.getByRole('complementary');
    await sidebar.getByText('Commits are kept as they are').waitFor();

    await area.getByRole('button', { name: 'What is squashing?' }).click();
    const help = page.getByRole('dialog', { name: 'What is squashing?' });
    await help.waitFor();
    await snap(page, 'polish-squash-popover');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await area.getByRole('checkbox', { name: 'Squash commits' }).check();
    await area.getByRole('button', { name: 'Merge', exact: true }).click();
    await area.getByText(/Merged by Administrator/).waitFor();
    await area.getByText('Merge details').waitFor();
    await sidebar.getByText('Commits were squashed into one when merged').waitFor();
    expect(await sidebar.getByText('Commits are kept as they are').count()).toBe(0);
    await snap(page, 'polish-squash-merged');
  });
});
