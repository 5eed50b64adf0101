import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitCli, TestServer } from '../server/src/test-support/server.js';
import { apiCall } from './support/api.js';
import { bareGit, holdRequests, mergeWidgetHarness, moveBranchBehindTheServersBack, snap, write, type Repo } from './support/merge-widget.js';

/**
 * Merging from the merge widget: ready to merge, the merging and merged
 * panels, a merge made elsewhere, merges that fail or are refused, and rebasing.
 * Against a real server and real repositories, reached the way a person reaches them (pushes
 * with git, requests through the REST API, clicks in Chromium), with a screenshot of each.
 */
describe('merging from the merge widget', () => {
  const h = mergeWidgetHarness();
  const { rest, checks, content, createRepo, commitOn, openMergeRequest, visit, subscribed, settled } = h;
  let server: TestServer;
  let page: Page;
  let git: GitCli;
  beforeAll(() => {
    ({ server, page, git } = h);
  });

  describe('a merge request that can be merged', () => {
    let repo: Repo;
    let iid = 0;

    beforeAll(async () => {
      repo = await createRepo('ready');
      await commitOn(repo, 'feature/ready', { 'feature.txt': 'A feature\n' }, 'Add the feature');
      await commitOn(repo, 'feature/ready', { 'feature.txt': 'A feature, refined\n' }, 'Refine the feature');
      iid = await openMergeRequest(repo, 'feature/ready', 'Add the feature', { allow_collaboration: true });
      expect(await settled(repo, iid)).toBe('mergeable');
    });

    it('is ready to merge: summary, options, commit summary and an enabled Merge button', async () => {
      const area = await visit(repo, iid);
      await checks().getByText('Ready to merge!').waitFor();
      await area.getByText('Members who can merge are allowed to add commits.').waitFor();
      await area.getByRole('checkbox', { name: 'Delete source branch' }).waitFor();
      await area.getByRole('checkbox', { name: 'Squash commits' }).waitFor();
      await area.getByText('2 commits and 1 merge commit will be added to main.').waitFor();
      expect(await area.getByRole('button', { name: 'Merge', exact: true }).isEnabled()).toBe(true);
      await snap(page, 'ready');

      // The expanded checks list every passing check (collapsed, only failed and checking ones show).
      await checks().getByRole('button', { name: 'Expand merge checks' }).click();
      await checks().getByText('Merge request must not be draft.').waitFor();
      await checks().getByText('Merge conflicts must be resolved.').waitFor();
      await snap(page, 'ready-checks-expanded');
      await checks().getByRole('button', { name: 'Collapse merge checks' }).click();
      expect(await checks().getByRole('listitem').count()).toBe(0);
    });

    it('edits the merge and squash commit messages, which a server update never overwrites', async () => {
      const area = content();
      await area.getByRole('checkbox', { name: 'Squash commits' }).check();
      await area.getByText('1 commit and 1 merge commit will be added to main (squashes 2 commits).').waitFor();
      await area.getByRole('checkbox', { name: 'Edit commit message' }).check();
      const squashMessage = area.getByRole('textbox', { name: 'Squash commit message' });
      const mergeMessage = area.getByRole('textbox', { name: 'Merge commit message' });
      await squashMessage.waitFor();
      expect(await mergeMessage.getAttribute('rows')).toBe('7');
      expect(await mergeMessage.inputValue()).toContain("Merge branch 'feature/ready' into 'main'");
      await mergeMessage.fill('Merge the feature\n\nReviewed in the browser test.');
      await snap(page, 'edit-commit-message');

      // Clearing a required message disables Merge; typing it back enables it.
      await mergeMessage.fill('');
      expect(await area.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true);
      await mergeMessage.fill('Merge the feature');
      expect(await area.getByRole('button', { name: 'Merge', exact: true }).isEnabled()).toBe(true);
      await area.getByRole('checkbox', { name: 'Squash commits' }).uncheck();
      await area.getByRole('checkbox', { name: 'Edit commit message' }).uncheck();
    });

    it('merges: the merging panel, then Merged with the merge details', async () => {
      const area = content();
      await area.getByRole('checkbox', { name: 'Delete source branch' }).check();
      // Hold the merge call for a moment, so the merging panel can be seen and photographed.
      const hold = await holdRequests(page, (url) => url.pathname === `/api/v4/projects/${repo.id}/merge_requests/${iid}/merge`);
      await area.getByRole('button', { name: 'Merge', exact: true }).click();
      await area.getByTestId('merging-phrase').waitFor();
      expect(await area.getByTestId('merging-phrase').textContent()).toMatch(/^Merging! /);
      await snap(page, 'merging');
      await hold.release();

      await area.getByText('Merged by Administrator').waitFor();
      await area.getByText('Merge details').waitFor();
      await area.getByText(/Changes merged into main with [0-9a-f]{8}\./).waitFor();
      await area.getByText('Deleted the source branch.').waitFor({ timeout: 15_000 });
      const mr = await rest<{ state: string; merge_commit_sha: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`);
      expect(mr.state).toBe('merged');
      expect(await area.getByRole('link', { name: mr.merge_commit_sha.slice(0, 8) }).getAttribute('href')).toBe(`/${repo.fullPath}/-/commit/${mr.merge_commit_sha}`);
      // The header follows the widget.
      await page.getByText('Merged', { exact: true }).first().waitFor();
      await snap(page, 'merged');
    });
  });

  it('follows a merge made elsewhere, and offers to delete the source branch it kept', async () => {
    const repo = await createRepo('kept');
    await commitOn(repo, 'keep-me', { 'kept.txt': 'kept\n' }, 'Keep the branch');
    const iid = await openMergeRequest(repo, 'keep-me', 'Keep the branch');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    await subscribed();
    // Merged by someone else (through the API): the open page follows without a reload.
    await rest('PUT', `/projects/${repo.id}/merge_requests/${iid}/merge`, { should_remove_source_branch: false });
    await area.getByText('Merged by Administrator').waitFor({ timeout: 5_000 });
    await area.getByText('Did not delete the source branch.').waitFor();
    await snap(page, 'merged-branch-kept');
    await area.getByRole('button', { name: 'Delete source branch' }).click();
    await area.getByText('Deleted the source branch.').waitFor();
    expect((await apiCall(server.url, server.root.token, 'GET', `/projects/${repo.id}/repository/branches/keep-me`)).status).toBe(404);
  });

  it('a merge that fails shows the error with a 10-second countdown, and Refresh now', async () => {
    const repo = await createRepo('failing');
    await commitOn(repo, 'fails', { 'app.txt': 'the branch rewrote this\n' }, 'Rewrite the app on the branch');
    const iid = await openMergeRequest(repo, 'fails', 'Will fail');
    expect(await settled(repo, iid)).toBe('mergeable');
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    // main moves to a conflicting commit straight in the server's repository: no push, so
    // nothing rechecks and the page still offers Merge. The merge itself meets the conflict.
    const before = await moveBranchBehindTheServersBack(server, git, repo, 'main', { 'app.txt': 'main rewrote this\n' }, 'Rewrite the app on main');
    const answers: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === `/api/v4/projects/${repo.id}/merge_requests/${iid}/merge`) answers.push(response.status());
    });
    await area.getByRole('button', { name: 'Merge', exact: true }).click();
    await area.getByText('Branch cannot be merged.').waitFor();
    await area.getByText(/Refreshing in \d+ seconds to show the updated status\.\.\./).waitFor();
    expect(answers).toEqual([422]);
    await snap(page, 'failed-to-merge');
    const mr = await rest<{ state: string; merge_error: string | null }>('GET', `/projects/${repo.id}/merge_requests/${iid}`);
    expect(mr).toMatchObject({ state: 'opened', merge_error: 'Merge request is not mergeable' });
    expect(await bareGit(server, repo.id, ['rev-parse', 'refs/heads/main'])).toBe(before);

    // Refreshed, the widget says why: the merge error, and the conflict the server now knows of.
    await area.getByRole('button', { name: 'Refresh now' }).click();
    await checks().getByText('Merge conflicts must be resolved.').waitFor({ timeout: 15_000 });
    await area.getByRole('alert').filter({ hasText: 'Merge request is not mergeable. Try again.' }).waitFor();
    expect(await area.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true);
    await snap(page, 'failed-to-merge-refreshed');
  });

  it('merging a head that moved after the page loaded is refused, and nothing is merged', async () => {
    const repo = await createRepo('stale');
    await commitOn(repo, 'stale', { 'stale.txt': 'one\n' }, 'First version');
    const iid = await openMergeRequest(repo, 'stale', 'A stale head');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    // The push lands while the merge call is on its way (held until the push is in).
    const hold = await holdRequests(page, (url) => url.pathname === `/api/v4/projects/${repo.id}/merge_requests/${iid}/merge`);
    await area.getByRole('button', { name: 'Merge', exact: true }).click();
    write(repo.dir, 'stale.txt', 'two\n');
    await git.git(['commit', '--all', '-m', 'Second version'], { cwd: repo.dir });
    await git.git(['push', 'origin', 'stale'], { cwd: repo.dir });
    await hold.release();
    await area.getByText('Something went wrong. Please try again.').waitFor();
    await area.getByText('Merge blocked: new changes were just added.').waitFor({ timeout: 15_000 });
    await snap(page, 'sha-mismatch-on-merge');
    expect((await rest<{ state: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`)).state).toBe('opened');
  });

  it('in a fast-forward project, a branch behind main needs a rebase: the dialog, then the rebase', async () => {
    const repo = await createRepo('fast-forward', { merge_method: 'ff' });
    await commitOn(repo, 'behind', { 'behind.txt': 'behind\n' }, 'Work on a branch');
    await commitOn(repo, 'main', { 'main.txt': 'moved on\n' }, 'Move main on');
    const iid = await openMergeRequest(repo, 'behind', 'Work on a branch');
    expect(await settled(repo, iid)).toBe('need_rebase');
    const area = await visit(repo, iid);
    await checks().getByText('Merge request must be rebased, because a fast-forward merge is not possible.').waitFor();
    await area.getByRole('link', { name: '1 commit behind' }).waitFor();
    await area.getByText('1 commit behind the target branch').waitFor();
    // Fast-forward only: no merge commit message.
    expect(await area.getByRole('checkbox', { name: 'Edit commit message' }).count()).toBe(0);
    await snap(page, 'need-rebase');

    await area.getByRole('button', { name: 'Rebase source branch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rebase source branch?' });
    await dialog.waitFor();
    // Cancel has the focus: Enter must not rebase by accident.
    await expect.poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((element) => element === document.activeElement)).toBe(true);
    await snap(page, 'rebase-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await area.getByRole('button', { name: 'Rebase source branch' }).click();
    await page.getByRole('dialog', { name: 'Rebase source branch?' }).getByRole('button', { name: 'Rebase' }).click();
    await area.getByText('Scheduled a rebase of branch behind.').waitFor();
    // The rebase moved the branch; the widget takes that head as its own (no "new changes" panel).
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
    await area.getByText('1 commit will be added to main.').waitFor();
    expect(await area.getByText('Merge blocked: new changes were just added.').count()).toBe(0);
    await snap(page, 'rebased');
  });

  it('a rebase that conflicts leaves the merge error banner, which can be dismissed', async () => {
    const repo = await createRepo('rebase-conflict', { merge_method: 'ff' });
    await commitOn(repo, 'clashing', { 'app.txt': 'the branch rewrote this\n' }, 'Rewrite on the branch');
    await commitOn(repo, 'main', { 'app.txt': 'main rewrote this\n' }, 'Rewrite on main');
    const iid = await openMergeRequest(repo, 'clashing', 'Clashing rewrite');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await area.getByRole('button', { name: 'Rebase source branch' }).click();
    await page.getByRole('dialog', { name: 'Rebase source branch?' }).getByRole('button', { name: 'Rebase' }).click();
    const banner = area.getByRole('alert').filter({ hasText: 'Try again.' });
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain('Rebase failed. Please rebase locally. Try again.');
    await snap(page, 'merge-error-banner');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });
});
