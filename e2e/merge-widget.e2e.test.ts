import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api, apiCall } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { shot, signInThroughForm } from './support/flows.js';

/**
 * The merge widget (issue 4, seed 000 §2) against a real server and real repositories: every
 * state panel and dialog, reached the way a person reaches it (pushes with git, requests
 * through the REST API, clicks in Chromium), with a screenshot of each.
 */
const T = 'merge-widget';

interface Repo {
  id: number;
  fullPath: string;
  dir: string;
}

function write(root: string, path: string, content: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * Holds the page's requests matching `match` until release(), then lets them reach the
 * server unchanged (the moment between a click and the server's answer, made long enough
 * to look at). release() resolves once every held request went on and the route is gone.
 */
/** A screenshot from the top of the page (the sticky header otherwise lands mid-picture). */
async function snap(page: Page, state: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, T, state);
}

async function holdRequests(page: Page, match: (url: URL) => boolean): Promise<{ release(): Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const passed: Promise<void>[] = [];
  await page.route(match, (route: Route) => {
    const done = gate.then(() => route.continue());
    passed.push(done);
    return done;
  });
  return {
    async release() {
      open();
      await Promise.all(passed);
      await page.unroute(match);
    },
  };
}

describe('the merge widget', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let developer: TestUser;

  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) => api<R>(server.url, server.root.token, method, path, body);
  const widget = (on: Page = page) => on.getByRole('region', { name: 'Merge status' });
  const checks = (on: Page = page) => widget(on).getByRole('group', { name: 'Merge checks' });
  /** The widget without its live region, which repeats the state's sentence for screen readers. */
  const content = (on: Page = page) => widget(on).locator(':scope > :not([aria-live])');

  /** A project with `main` holding README.md and app.txt (ten lines), pushed with git; `settings` go to PUT /projects/:id. */
  async function createRepo(path: string, settings: Record<string, unknown> = {}): Promise<Repo> {
    const project = await rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: path, path, visibility: 'private' });
    if (Object.keys(settings).length > 0) await rest('PUT', `/projects/${project.id}`, settings);
    const dir = join(git.dir, path);
    mkdirSync(dir, { recursive: true });
    await git.git(['init', '--initial-branch=main'], { cwd: dir });
    write(dir, 'README.md', `# ${path}\n`);
    write(dir, 'app.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    await git.git(['add', '.'], { cwd: dir });
    await git.git(['commit', '-m', 'Start'], { cwd: dir });
    await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    return { id: project.id, fullPath: project.path_with_namespace, dir };
  }

  /** Commits `files` on `branch` (created from `from` when new) and pushes it. */
  async function commitOn(repo: Repo, branch: string, files: Record<string, string>, message: string, from = 'main'): Promise<void> {
    const exists = (await git.git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: repo.dir, allowFailure: true })).code === 0;
    await git.git(exists ? ['switch', branch] : ['switch', '--create', branch, from], { cwd: repo.dir });
    for (const [path, content] of Object.entries(files)) write(repo.dir, path, content);
    await git.git(['add', '--all'], { cwd: repo.dir });
    await git.git(['commit', '-m', message], { cwd: repo.dir });
    await git.git(['push', '--set-upstream', 'origin', branch], { cwd: repo.dir });
  }

  async function openMergeRequest(repo: Repo, source: string, title: string, extra: Record<string, unknown> = {}): Promise<number> {
    const created = await rest<{ iid: number }>('POST', `/projects/${repo.id}/merge_requests`, { source_branch: source, target_branch: 'main', title, ...extra });
    return created.iid;
  }

  /** The merge request's Overview tab, once the widget has loaded. */
  async function visit(repo: Repo, iid: number, on: Page = page): Promise<Locator> {
    await on.goto(`/${repo.fullPath}/-/merge_requests/${iid}`);
    await widget(on).waitFor();
    await expect.poll(() => widget(on).getAttribute('aria-busy')).not.toBe('true');
    return content(on);
  }

  /** Waits for the server's mergeability check to settle (the REST status is not checking any more); usable in hooks too. */
  async function settled(repo: Repo, iid: number): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { detailed_merge_status: status } = await rest<{ detailed_merge_status: string }>('GET', `/projects/${repo.id}/merge_requests/${iid}`);
      if (!['unchecked', 'checking', 'preparing'].includes(status)) return status;
      if (Date.now() > deadline) throw new Error(`merge request !${iid} still ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    developer = await server.createUser({ username: 'dev', name: 'Dana Developer' });
    page = await newPage(browser, server.url);
    page.on('pageerror', (error) => console.error(`[merge-widget] page error: ${error.message}`));
    await signInThroughForm(page, { username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
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
    await page.waitForTimeout(500);
    // Merged by someone else (through the API): the open page follows without a reload.
    await rest('PUT', `/projects/${repo.id}/merge_requests/${iid}/merge`, { should_remove_source_branch: false });
    await area.getByText('Merged by Administrator').waitFor({ timeout: 5_000 });
    await area.getByText('Did not delete the source branch.').waitFor();
    await snap(page, 'merged-branch-kept');
    await area.getByRole('button', { name: 'Delete source branch' }).click();
    await area.getByText('Deleted the source branch.').waitFor();
    expect((await apiCall(server.url, server.root.token, 'GET', `/projects/${repo.id}/repository/branches/keep-me`)).status).toBe(404);
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

  it('a merge that fails shows the error with a 10-second countdown, and Refresh now', async () => {
    const repo = await createRepo('failing');
    await commitOn(repo, 'fails', { 'fails.txt': 'fails\n' }, 'Will fail');
    const iid = await openMergeRequest(repo, 'fails', 'Will fail');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    // The server answers 422 only when it loses a race with another merge mid-way, which a
    // test cannot time; the answer is GitLab's for that case, as the server words it.
    const mergeCall = (url: URL) => url.pathname === `/api/v4/projects/${repo.id}/merge_requests/${iid}/merge`;
    await page.route(mergeCall, (route: Route) => route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ message: 'Branch cannot be merged' }) }));
    await area.getByRole('button', { name: 'Merge', exact: true }).click();
    await area.getByText('Branch cannot be merged.').waitFor();
    await area.getByText(/Refreshing in \d+ seconds to show the updated status\.\.\./).waitFor();
    await snap(page, 'failed-to-merge');
    await page.unroute(mergeCall);
    await area.getByRole('button', { name: 'Refresh now' }).click();
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

  it('updates within a second of a push, and blocks the merge until the new changes are reviewed', async () => {
    const repo = await createRepo('pushed');
    await commitOn(repo, 'moving', { 'moving.txt': 'one\n' }, 'First version');
    const iid = await openMergeRequest(repo, 'moving', 'A moving branch');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    // Let the subscription connect before pushing.
    await page.waitForTimeout(500);

    write(repo.dir, 'moving.txt', 'two\n');
    await git.git(['commit', '--all', '-m', 'Second version'], { cwd: repo.dir });
    // Record, in the page, when the widget's text first changes after the push returns.
    await page.evaluate(() => {
      const target = document.querySelector('section[aria-label="Merge status"]')!;
      const before = target.textContent;
      (window as unknown as { widgetChanged: Promise<{ at: number; text: string }> }).widgetChanged = new Promise((resolve) => {
        new MutationObserver((_, observer) => {
          if (target.textContent !== before) {
            observer.disconnect();
            resolve({ at: Date.now(), text: target.textContent ?? '' });
          }
        }).observe(target, { subtree: true, childList: true, characterData: true });
      });
    });
    await git.git(['push', 'origin', 'moving'], { cwd: repo.dir });
    const pushed = Date.now();
    const mismatch = area.getByText('Merge blocked: new changes were just added.');
    await mismatch.waitFor({ timeout: 10_000 });
    const shown = Date.now() - pushed;
    const first = await page.evaluate(() => (window as unknown as { widgetChanged: Promise<{ at: number; text: string }> }).widgetChanged);
    const changed = first.at - pushed;
    console.log(`[merge-widget] push → widget changed in ${changed} ms (to "${first.text.slice(0, 60)}"), sha-mismatch shown in ${shown} ms`);
    // The first change is the push itself (checking, or already the new head); the final panel waits for the server's recheck.
    expect(first.text).toMatch(/Checking if merge request can be merged…|Merge blocked: new changes were just added\./);
    expect(changed).toBeLessThan(1_000);
    await snap(page, 'sha-mismatch');

    await area.getByRole('link', { name: 'Review changes' }).click();
    await page.waitForURL((url) => url.pathname === `/${repo.fullPath}/-/merge_requests/${iid}/diffs`);
    // Back on the Overview, the widget is created afresh with the new head: ready again.
    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' }).click();
    await checks().getByText('Ready to merge!').waitFor();
  });

  it('shows the checking panel while the server rechecks a pushed head', async () => {
    const repo = await createRepo('rechecked');
    await commitOn(repo, 'waiting', { 'waiting.txt': 'one\n' }, 'Wait for a recheck');
    const iid = await openMergeRequest(repo, 'waiting', 'Wait for a recheck');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    await page.waitForTimeout(500);
    // Once the real server has answered CHECKING, hold its later answers back from the page
    // so the short-lived panel stays long enough to be seen; then let them through.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let sawChecking = false;
    const graphql = (url: URL) => url.pathname === '/api/graphql';
    await page.route(graphql, async (route: Route) => {
      const response = await route.fetch();
      const body = await response.text();
      // UNCHECKED (a recheck queued) shows as checking too, as in GitLab's API.
      if (/"detailedMergeStatus":"(UN)?CHECK(ED|ING)"/.test(body)) sawChecking = true;
      else if (sawChecking) await gate;
      // The page may have cancelled the request meanwhile (a newer refetch replaced it).
      await route.fulfill({ response, body }).catch(() => undefined);
    });
    const checking = area.getByText('Checking if merge request can be merged…');
    try {
      // The recheck is quick; a push whose first refetch already finds it done is tried again.
      for (let attempt = 1; attempt <= 5 && !(await checking.isVisible()); attempt++) {
        await commitOn(repo, 'waiting', { 'waiting.txt': `version ${attempt + 1}\n` }, `Version ${attempt + 1}`);
        await checking.waitFor({ timeout: 3_000 }).catch(() => undefined);
      }
      await checking.waitFor({ timeout: 1_000 });
      await snap(page, 'checking');
    } finally {
      open();
      await page.unroute(graphql);
    }
    await area.getByText('Merge blocked: new changes were just added.').waitFor({ timeout: 15_000 });
  });

  it('polls at the server’s Poll-Interval while the WebSocket is down', async () => {
    const repo = await createRepo('polled');
    await commitOn(repo, 'polled', { 'polled.txt': 'polled\n' }, 'Polled change');
    const iid = await openMergeRequest(repo, 'polled', 'Polled change');
    await settled(repo, iid);
    const pollPage = await newPage(browser, server.url);
    await signInThroughForm(pollPage, { username: 'root', password: server.root.password });
    // Every subscription socket is refused at once: the page has no live channel.
    await pollPage.routeWebSocket(/\/api\/graphql$/, (socket) => socket.close());
    const intervals: (string | null)[] = [];
    pollPage.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith(`/-/merge_requests/${iid}/widget.json`)) intervals.push(response.headers()['poll-interval'] ?? null);
    });
    const area = await visit(repo, iid, pollPage);
    await checks(pollPage).getByText('Ready to merge!').waitFor();
    await expect.poll(() => intervals.length).toBe(1);
    expect(intervals[0]).toBe('10000');
    await rest('DELETE', `/projects/${repo.id}/repository/branches/polled`);
    const deleted = Date.now();
    // No socket, so only the poll can bring it: within one Poll-Interval (10 s) and a little.
    await area.getByText('The source branch polled does not exist.').waitFor({ timeout: 15_000 });
    console.log(`[merge-widget] without a socket, the poll showed the deleted branch after ${Date.now() - deleted} ms`);
    await pollPage.context().close();
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
});
