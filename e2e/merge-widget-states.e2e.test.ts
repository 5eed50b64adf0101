import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitCli, TestServer, TestUser } from '../server/src/test-support/server.js';
import { newPage, type LaunchedBrowser } from './support/browser.js';
import { signInThroughForm } from './support/flows.js';
import { snap, mergeWidgetHarness } from './support/merge-widget.js';

/**
 * The merge widget's state panels: blocked by checks, closed,
 * missing branch, nothing to merge, archived, without merge rights, the load error.
 * Against a real server and real repositories, reached the way a person reaches them (pushes
 * with git, requests through the REST API, clicks in Chromium), with a screenshot of each.
 */
describe('the merge widget’s state panels', () => {
  const h = mergeWidgetHarness();
  const { rest, widget, checks, createRepo, commitOn, openMergeRequest, visit, settled } = h;
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let developer: TestUser;
  beforeAll(() => {
    ({ server, browser, page, git, developer } = h);
  });

  it('blocks a conflicting merge request: the failed check, and no Merge', async () => {
    const repo = await createRepo('conflict');
    await commitOn(repo, 'conflicting', { 'app.txt': 'the branch rewrote this\n' }, 'Rewrite the app on the branch');
    await commitOn(repo, 'main', { 'app.txt': 'main rewrote this\n' }, 'Rewrite the app on main');
    const iid = await openMergeRequest(repo, 'conflicting', 'Rewrite the app');
    expect(await settled(repo, iid)).toBe('conflict');
    const area = await visit(repo, iid);
    await checks().getByText('Merge blocked: 1 check failed').waitFor();
    await checks().getByText('Merge conflicts must be resolved.').waitFor();
    expect(await area.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true);
    await snap(page, 'conflict');
  });

  it('blocks a draft, and Mark as ready unblocks it', async () => {
    const repo = await createRepo('draft');
    await commitOn(repo, 'drafty', { 'draft.txt': 'not yet\n' }, 'Start a draft');
    const iid = await openMergeRequest(repo, 'drafty', 'Draft: Not finished');
    expect(await settled(repo, iid)).toBe('draft_status');
    const area = await visit(repo, iid);
    await checks().getByText('Merge request must not be draft.').waitFor();
    await checks().getByText('Merge blocked: 1 check failed').waitFor();
    await snap(page, 'draft');
    await checks().getByRole('button', { name: 'Mark as ready' }).click();
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
    expect(await area.getByRole('button', { name: 'Merge', exact: true }).isEnabled()).toBe(true);
  });

  it('lists the merge requests that block this one, and unblocks when they merge', async () => {
    const repo = await createRepo('blocked');
    await commitOn(repo, 'first', { 'first.txt': 'first\n' }, 'First change');
    await commitOn(repo, 'second', { 'second.txt': 'second\n' }, 'Second change');
    const first = await openMergeRequest(repo, 'first', 'First change');
    const second = await openMergeRequest(repo, 'second', 'Second change');
    await rest('POST', `/projects/${repo.id}/merge_requests/${second}/blocks`, { blocking_merge_request_iid: first });
    await settled(repo, first);
    expect(await settled(repo, second)).toBe('merge_request_blocked');
    const area = await visit(repo, second);
    const blocking = area.getByRole('region', { name: 'Blocking merge requests' });
    await blocking.getByRole('link', { name: /First change/ }).waitFor();
    await checks().getByText('Merge request dependencies must be merged.').waitFor();
    await snap(page, 'blocked');
    await rest('PUT', `/projects/${repo.id}/merge_requests/${first}/merge`);
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
  });

  it('shows a closed request, and Reopen brings it back', async () => {
    const repo = await createRepo('closed');
    await commitOn(repo, 'closing', { 'closing.txt': 'closing\n' }, 'Something to close');
    const iid = await openMergeRequest(repo, 'closing', 'Something to close');
    await rest('PUT', `/projects/${repo.id}/merge_requests/${iid}`, { state_event: 'close' });
    const area = await visit(repo, iid);
    await area.getByText('Closed by Administrator').waitFor();
    await area.getByText('The changes were not merged into main.').waitFor();
    await snap(page, 'closed');
    await area.getByRole('button', { name: 'Reopen' }).click();
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
    expect((await rest<{ state: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`)).state).toBe('opened');
  });

  it('says which branch is missing once the source branch is deleted', async () => {
    const repo = await createRepo('missing');
    await commitOn(repo, 'gone-soon', { 'gone.txt': 'gone\n' }, 'Soon gone');
    const iid = await openMergeRequest(repo, 'gone-soon', 'Soon gone');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    await rest('DELETE', `/projects/${repo.id}/repository/branches/gone-soon`);
    // No reload: the widget hears about it.
    await area.getByText('The source branch gone-soon does not exist.').waitFor({ timeout: 15_000 });
    await area.getByText('Please restore it or use a different source branch.').waitFor();
    await snap(page, 'missing-branch');
  });

  it('has nothing to merge when the source branch adds no commits', async () => {
    const repo = await createRepo('nothing');
    await git.git(['push', 'origin', 'main:refs/heads/same-as-main'], { cwd: repo.dir });
    const iid = await openMergeRequest(repo, 'same-as-main', 'Nothing at all');
    const area = await visit(repo, iid);
    await area.getByText('This merge request contains no changes.').waitFor({ timeout: 15_000 });
    await snap(page, 'nothing-to-merge');
  });

  it('is read-only in an archived project', async () => {
    const repo = await createRepo('archived');
    await commitOn(repo, 'late', { 'late.txt': 'late\n' }, 'Too late');
    const iid = await openMergeRequest(repo, 'late', 'Too late');
    await settled(repo, iid);
    await rest('POST', `/projects/${repo.id}/archive`, {});
    const area = await visit(repo, iid);
    await area.getByText('Merge unavailable: merge requests are read-only on archived projects.').waitFor();
    expect(await area.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
    await snap(page, 'archived');
  });

  it('squash is read-only, with the reason, when the project requires it', async () => {
    const repo = await createRepo('squash-always', { squash_option: 'always' });
    await commitOn(repo, 'squashed', { 's.txt': 's\n' }, 'To be squashed');
    const iid = await openMergeRequest(repo, 'squashed', 'To be squashed');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    const squash = area.getByRole('checkbox', { name: 'Squash commits' });
    await squash.waitFor();
    expect(await squash.isChecked()).toBe(true);
    expect(await squash.isDisabled()).toBe(true);
    await area.getByRole('button', { name: 'Required in this project.' }).hover();
    // The lock's tooltip (a label tooltip, so not a role=tooltip element) says why.
    await page.getByText('Required in this project.', { exact: true }).filter({ visible: true }).waitFor();
    await snap(page, 'squash-required');
  });

  describe('without merge rights', () => {
    it('a developer sees the request as ready for members who can write to main, without merge controls', async () => {
      const repo = await createRepo('no-rights');
      await rest('POST', `/projects/${repo.id}/members`, { user_id: developer.id, access_level: 30 });
      await commitOn(repo, 'by-dev', { 'dev.txt': 'dev\n' }, 'A developer change');
      const iid = await openMergeRequest(repo, 'by-dev', 'A developer change');
      await settled(repo, iid);
      const devPage = await newPage(browser, server.url);
      await signInThroughForm(devPage, { username: developer.username, password: developer.password });
      const area = await visit(repo, iid, devPage);
      await checks(devPage).getByText('Ready to merge by members who can write to the target branch.').waitFor();
      expect(await area.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
      expect(await area.getByRole('checkbox', { name: 'Delete source branch' }).count()).toBe(0);
      await snap(devPage, 'not-allowed');
      await devPage.context().close();
    });
  });

  it('shows its load error when the widget cannot be read', async () => {
    const repo = await createRepo('load-error');
    await commitOn(repo, 'err', { 'err.txt': 'err\n' }, 'Error');
    const iid = await openMergeRequest(repo, 'err', 'Error');
    const graphql = (url: URL) => url.pathname === '/api/graphql';
    await page.route(graphql, (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) }));
    await page.goto(`/${repo.fullPath}/-/merge_requests/${iid}`);
    await widget().getByText('Unable to load the merge request widget. Try reloading the page.').waitFor({ timeout: 15_000 });
    await snap(page, 'load-error');
    await page.unroute(graphql);
    await widget().getByRole('button', { name: 'Try again' }).click();
    await checks().getByText('Ready to merge!').waitFor({ timeout: 15_000 });
  });

  it('is preparing while the first version is not recorded, then ready once it is', async () => {
    const repo = await createRepo('preparing');
    await commitOn(repo, 'prepared', { 'prepared.txt': 'prepared\n' }, 'Something to prepare');
    // A stale lock on the version ref (as a crashed git leaves one) makes every attempt to
    // record the first version fail until it goes: the request opens without one, and the
    // refresh job retries. Real git, real failure, held as long as the test needs.
    const lock = join(server.app.services.storage.pathFor(repo.id), 'refs', 'merge-requests', '1', 'head.lock');
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, '');
    const iid = await openMergeRequest(repo, 'prepared', 'Something to prepare');
    expect(iid).toBe(1);
    expect((await rest<{ detailed_merge_status: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`)).detailed_merge_status).toBe('preparing');
    const area = await visit(repo, iid);
    await area.getByText('Your merge request is almost ready!').waitFor();
    expect(await area.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
    await snap(page, 'preparing');
    // The lock goes; the job's next retry records the version and the open page follows.
    rmSync(lock);
    await checks().getByText('Ready to merge!').waitFor({ timeout: 40_000 });
  });
});
