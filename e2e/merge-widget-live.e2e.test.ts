import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitCli, TestServer } from '../server/src/test-support/server.js';
import { newPage, type LaunchedBrowser } from './support/browser.js';
import { signInThroughForm } from './support/flows.js';
import { snap, write, mergeWidgetHarness } from './support/merge-widget.js';

/**
 * The merge widget staying current: a push shown within a second,
 * the checking panel while the server rechecks, polling when the WebSocket is down.
 * Against a real server and real repositories, reached the way a person reaches them (pushes
 * with git, requests through the REST API, clicks in Chromium), with a screenshot of each.
 */
describe('the merge widget, live', () => {
  const h = mergeWidgetHarness();
  const { rest, checks, createRepo, commitOn, openMergeRequest, visit, subscribed, settled } = h;
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  beforeAll(() => {
    ({ server, browser, page, git } = h);
  });

  it('updates within a second of a push, and blocks the merge until the new changes are reviewed', async () => {
    const repo = await createRepo('pushed');
    await commitOn(repo, 'moving', { 'moving.txt': 'one\n' }, 'First version');
    const iid = await openMergeRequest(repo, 'moving', 'A moving branch');
    await settled(repo, iid);
    const area = await visit(repo, iid);
    await checks().getByText('Ready to merge!').waitFor();
    // The subscription is on its way before the push.
    await subscribed();

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
    await subscribed();
    // A stale lock on the trial merge ref (as a crashed git leaves one) makes every recheck
    // fail until it goes: the push leaves the request checking, and the refresh job retries.
    // Real git, real failure, held as long as the test needs, so the panel is seen every time.
    const lock = join(server.app.services.storage.pathFor(repo.id), 'refs', 'merge-requests', String(iid), 'merge.lock');
    writeFileSync(lock, '');
    try {
      await commitOn(repo, 'waiting', { 'waiting.txt': 'two\n' }, 'Version 2');
      await area.getByText('Checking if merge request can be merged…').waitFor({ timeout: 10_000 });
      expect(await area.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
      await snap(page, 'checking');
    } finally {
      rmSync(lock, { force: true });
    }
    // The lock goes; the job's next retry finishes the recheck and the open page follows.
    await area.getByText('Merge blocked: new changes were just added.').waitFor({ timeout: 40_000 });
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
});
