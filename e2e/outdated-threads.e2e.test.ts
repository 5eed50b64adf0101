import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { chooseInTree, viewportShot } from './support/diff-pages.js';
import { signInThroughForm } from './support/flows.js';

/**
 * Outdated diff threads after real pushes (resolved automatically by push,
 * `outdated_line_change_path`): a thread whose line a push changes shows in Activity
 * as 'started a thread on an old version of the diff' with the -/+ lines of that change; a thread
 * whose line only moved still sits on it in the Changes tab; with the project's
 * resolve_outdated_diff_discussions the push resolves it ('Automatically resolved').
 */
const T = 'outdated-threads';

const APP = 'src/app.ts';
const ADD_LINE = 'Add a comment to this line or drag for multiple lines';
const appLine = (i: number, value: number | string = i) => `export const L${i} = ${value};`;
/** Line i of src/app.ts, with the values the feature branch changed so far. */
const lines = (changed: Record<number, number | string>) => Array.from({ length: 12 }, (_, i) => appLine(i + 1, changed[i + 1] ?? i + 1));

describe('outdated diff threads', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let work: string;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>) => api<R>(server.url, server.root.token, method, path, body);
  const mrPath = () => `/projects/${project.id}/merge_requests/${iid}`;
  const changes = () => page.getByRole('region', { name: 'Changes' });
  const activity = () => page.locator('#notes');
  const row = (text: string) => changes().locator('[data-point]', { hasText: text });
  const form = () => changes().locator('[data-diff-note-form]');
  const activityThread = (text: string) => activity().getByRole('article').filter({ hasText: text });
  const discussion = async (body: string) => (await rest<any[]>('GET', `${mrPath()}/discussions`)).find((d) => d.notes[0]?.body === body);

  /** Commits src/app.ts (with `top` lines above) on feature and pushes it with the git CLI. */
  async function push(content: string[], message: string): Promise<string> {
    const file = join(work, APP);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${content.join('\n')}\n`);
    await git.git(['commit', '-q', '-a', '-m', message], { cwd: work });
    await git.git(['push', '-q', 'origin', 'feature'], { cwd: work });
    return (await git.git(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();
  }

  async function openChanges(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}/diffs`);
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await chooseInTree(page, APP);
    await changes().getByRole('heading', { name: APP, exact: true }).first().waitFor();
  }

  async function openActivity(): Promise<void> {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await activity().getByRole('heading', { name: 'Activity' }).waitFor();
    await activity().getByRole('status', { name: 'Loading activity' }).waitFor({ state: 'detached' });
  }

  /** Comments on one line of the Changes tab through its '+' button. */
  async function commentOn(line: Locator, body: string): Promise<void> {
    await line.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await line.hover();
    await line.getByRole('button', { name: ADD_LINE }).click();
    await form().getByRole('textbox', { name: 'Comment' }).fill(body);
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await changes().getByRole('article', { name: 'Thread' }).filter({ hasText: body }).waitFor();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    project = await rest('POST', '/projects', { name: 'Outdated', path: 'outdated' });
    work = join(git.dir, 'outdated');
    mkdirSync(work, { recursive: true });
    await git.git(['init', '-q', '--initial-branch=main'], { cwd: work });
    mkdirSync(join(work, 'src'), { recursive: true });
    writeFileSync(join(work, APP), `${lines({}).join('\n')}\n`);
    await git.git(['add', '.'], { cwd: work });
    await git.git(['commit', '-q', '-m', 'Start'], { cwd: work });
    await git.git(['remote', 'add', 'origin', git.repoUrl(project.path_with_namespace)], { cwd: work });
    await git.git(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.git(['switch', '-q', '--create', 'feature'], { cwd: work });
    await push(lines({ 5: 50, 8: 80, 10: 100 }), 'Change three lines');
    iid = (await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Outdate me' })).iid;
    page = await newPage(browser, server.url);
    await signInThroughForm(page, { username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  it('a push that changes a commented line outdates its thread: Activity shows the old version and the changed lines', async () => {
    await openChanges();
    await commentOn(row(appLine(5, 50)), 'Why fifty?');
    await commentOn(row(appLine(10, 100)), 'A hundred is fine.');
    // before the push: a thread on the diff, its current lines
    await openActivity();
    await activityThread('Why fifty?').getByText('started a thread on the diff').waitFor();

    // two lines on top move every line down; line 5 changes again
    const head = await push(['// one', '// two', ...lines({ 5: 55, 8: 80, 10: 100 })], 'Fifty-five, and a header');
    await expect
      .poll(async () => [(await discussion('Why fifty?'))?.notes[0].active, (await discussion('A hundred is fine.'))?.notes[0].position.head_sha], { timeout: 30_000 })
      .toEqual([false, head]);
    const outdated = (await discussion('Why fifty?')).notes[0];
    expect(outdated.outdated_line_change_path).toMatch(/\/notes\/\d+\/outdated_line_change$/);
    expect(outdated.resolved_by_push).toBe(false);

    await openActivity();
    const thread = activityThread('Why fifty?');
    await thread.getByText('started a thread on an old version of the diff').waitFor();
    await thread.getByText('outdated', { exact: true }).waitFor();
    const changed = thread.locator('[data-outdated-lines]');
    await changed.waitFor();
    // the -/+ lines of the change, with their numbers: old line 5 went, new line 7 came
    const removed = changed.locator('[data-line-kind="removed"]');
    const added = changed.locator('[data-line-kind="added"]');
    await expect.poll(() => removed.innerText()).toMatch(new RegExp(`^5\\s+-\\s+${appLine(5, 50).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect.poll(() => added.innerText()).toMatch(new RegExp(`^7\\s+\\+\\s+${appLine(5, 55).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(await thread.getByText('Automatically resolved').count()).toBe(0);
    // the thread whose line only moved is still 'on the diff'
    await activityThread('A hundred is fine.').getByText('started a thread on the diff').waitFor();
    await thread.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await viewportShot(page, T, 'activity-outdated');
  });

  it('the Changes tab keeps the moved thread on its moved line and puts no outdated thread on current lines', async () => {
    await openChanges();
    const moved = row(appLine(10, 100));
    await moved.waitFor();
    expect(await moved.getAttribute('data-point')).toBe('add::12');
    // under its (moved) line: the next element after the row holds the thread
    await expect.poll(() => moved.locator('xpath=following-sibling::*[1]').getByText('A hundred is fine.').count()).toBe(1);
    expect(await changes().getByText('Why fifty?').count()).toBe(0);
    await moved.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await viewportShot(page, T, 'changes-moved-thread');
  });

  it('shows an error with Try again when the outdated lines cannot be loaded', async () => {
    let failures = 0;
    await page.route('**/outdated_line_change', async (route) => {
      failures++;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) });
    });
    await openActivity();
    const thread = activityThread('Why fifty?');
    await thread.getByText('Unable to load the diff').waitFor({ timeout: 20_000 });
    expect(failures).toBeGreaterThan(0);
    await thread.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await viewportShot(page, T, 'activity-outdated-error');
    await page.unroute('**/outdated_line_change');
    await thread.getByRole('button', { name: 'Try again' }).click();
    await thread.locator('[data-outdated-lines] [data-line-kind="added"]').waitFor();
  });

  it("with resolve_outdated_diff_discussions on, the push resolves the thread: 'Automatically resolved'", async () => {
    await rest('PUT', `/projects/${project.id}`, { resolve_outdated_diff_discussions: true });
    await openChanges();
    await commentOn(row(appLine(8, 80)), 'Eighty looks odd.');
    const head = await push(['// one', '// two', ...lines({ 5: 55, 8: 88, 10: 100 })], 'Eighty-eight');
    await expect
      .poll(async () => {
        const found = (await discussion('Eighty looks odd.'))?.notes[0];
        return [found?.active, found?.resolved, found?.resolved_by_push, (await discussion('A hundred is fine.'))?.notes[0].position.head_sha];
      }, { timeout: 30_000 })
      .toEqual([false, true, true, head]);

    await openActivity();
    // a resolved thread shows collapsed, one line, until opened
    await activity().getByRole('button', { name: /started a thread.*Automatically resolved/ }).click();
    const thread = activityThread('Eighty looks odd.');
    await thread.getByText('started a thread on an old version of the diff').waitFor();
    await thread.getByText('Automatically resolved').waitFor();
    await thread.locator('[data-outdated-lines] [data-line-kind="removed"]', { hasText: appLine(8, 80) }).waitFor();
    // the earlier outdated thread stays open: only this push's outdated threads were resolved
    expect(await activityThread('Why fifty?').getByText('Automatically resolved').count()).toBe(0);
    await thread.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await viewportShot(page, T, 'activity-resolved-by-push');
  });
});
