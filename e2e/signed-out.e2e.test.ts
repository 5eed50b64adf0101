import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, SCREENSHOTS_DIR, type LaunchedBrowser } from './support/browser.js';
import { pageSettled, shot } from './support/flows.js';

/**
 * A signed-out visitor: public projects are readable
 * without an account, as on GitLab, with every write action absent; the Activity section says
 * 'Please register or sign in to reply.' and links to sign in and back; a private project is
 * "Page not found", exactly like a path that does not exist.
 */
const T = 'signed-out';
const PROMPT = 'Please register or sign in to reply.';

describe('a signed-out visitor', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let developer: TestUser;
  let open: { id: number; path_with_namespace: string };
  let secret: { id: number; path_with_namespace: string };
  let iid = 0;
  /** Every request the visitor's browser sent, to check what it carried. */
  const sent: Request[] = [];
  const pageErrors: string[] = [];

  const rest = <R = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>, token = server.root.token) => api<R>(server.url, token, method, path, body);

  async function pushRepo(name: string, files: Record<string, string>, branch?: { name: string; files: Record<string, string> }): Promise<void> {
    const dir = join(git.dir, name);
    mkdirSync(dir, { recursive: true });
    const commit = async (content: Record<string, string>, message: string) => {
      for (const [file, text] of Object.entries(content)) writeFileSync(join(dir, file), text);
      await git.git(['add', '.'], { cwd: dir });
      await git.git(['commit', '-m', message], { cwd: dir });
    };
    await git.git(['init', '--initial-branch=main'], { cwd: dir });
    await commit(files, 'Start');
    await git.git(['remote', 'add', 'origin', git.repoUrl(`root/${name}`)], { cwd: dir });
    await git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    if (branch) {
      await git.git(['switch', '--create', branch.name], { cwd: dir });
      await commit(branch.files, `Change on ${branch.name}`);
      await git.git(['push', '--set-upstream', 'origin', branch.name], { cwd: dir });
    }
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    developer = await server.createUser({ username: 'dev', name: 'Dana Developer' });
    open = await rest('POST', '/projects', { name: 'open', path: 'open', visibility: 'public' });
    secret = await rest('POST', '/projects', { name: 'secret', path: 'secret', visibility: 'private' });
    const commons = await rest<{ id: number }>('POST', '/groups', { name: 'Commons', path: 'commons', visibility: 'public' });
    await rest('POST', '/projects', { name: 'library', path: 'library', namespace_id: commons.id, visibility: 'public' });
    const hidden = await rest<{ id: number }>('POST', '/groups', { name: 'Hidden', path: 'hidden', visibility: 'private' });
    await rest('POST', '/projects', { name: 'vault', path: 'vault', namespace_id: hidden.id, visibility: 'private' });
    await rest('POST', `/projects/${open.id}/members`, { user_id: developer.id, access_level: 30 });
    await pushRepo('open', { 'README.md': '# Open\n\nAnyone may read this.\n', 'app.ts': 'export const answer = 41;\n' }, { name: 'feature', files: { 'app.ts': 'export const answer = 42;\n' } });
    await pushRepo('secret', { 'README.md': '# Secret\n\nMembers only: the launch code.\n' });
    ({ iid } = await rest<{ iid: number }>('POST', `/projects/${open.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Fix the answer',
      description: 'The answer was **off by one**.',
    }));
    await rest('POST', `/projects/${open.id}/merge_requests/${iid}/notes`, { body: 'Good catch, thanks.' }, developer.token);
    await rest('POST', `/projects/${open.id}/merge_requests/${iid}/award_emoji`, { name: 'thumbsup' }, developer.token);

    page = await newPage(browser, server.url);
    page.on('request', (request) => sent.push(request));
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  const mrUrl = (tab = '') => `/${open.path_with_namespace}/-/merge_requests/${iid}${tab}`;
  const header = () => page.getByRole('banner');

  it("reads a public project's file, with 'Sign in' in the header and no Fork", async () => {
    await page.goto(`/${open.path_with_namespace}/-/blob/main/README.md`);
    await page.getByText('Anyone may read this.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(await page.getByRole('button', { name: /^User menu for / }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Fork' }).count()).toBe(0);
    // 'Sign in' comes back to this file
    expect(await page.getByRole('link', { name: 'Sign in' }).first().getAttribute('href')).toBe(
      `/users/sign_in?redirect=${encodeURIComponent(`/${open.path_with_namespace}/-/blob/main/README.md`)}`,
    );
    await shot(page, T, 'file');
  });

  it('reads a merge request: description, comments, reactions disabled, the widget without Merge, and the prompt', async () => {
    await page.goto(mrUrl());
    await page.getByRole('heading', { name: 'Fix the answer' }).waitFor();
    await page.locator('strong', { hasText: 'off by one' }).first().waitFor();
    const activity = page.locator('#notes');
    await activity.getByText('Good catch, thanks.').waitFor();
    const prompt = activity.getByRole('link', { name: PROMPT });
    await prompt.waitFor();
    expect(await prompt.getAttribute('href')).toBe(`/users/sign_in?redirect=${encodeURIComponent(mrUrl())}`);

    // the widget shows its state, but offers no merge to a visitor
    const widget = page.getByRole('region', { name: 'Merge status' });
    await widget.waitFor();
    await widget.getByText(/ready to merge|merge|check/i).first().waitFor();
    expect(await widget.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);

    // no write action anywhere: no comment form, no Edit, no Close, no award picker
    expect(await activity.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Close/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Mark as (draft|ready)/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reply to comment' }).count()).toBe(0);
    // the reaction shows its count and is disabled
    const thumbs = page.locator('[data-emoji-name="thumbsup"]').first();
    await thumbs.waitFor();
    expect(await thumbs.getAttribute('aria-disabled')).toBe('true');
    expect(await thumbs.innerText()).toContain('1');
    // a forced click (it is aria-disabled) awards nothing
    await thumbs.click({ force: true });
    await pageSettled(page);
    expect(await thumbs.getAttribute('aria-pressed')).toBe('false');
    expect(sent.filter((request) => request.url().includes('/award_emoji') && request.method() !== 'GET')).toEqual([]);
    await shot(page, T, 'merge-request');
    await activity.screenshot({ path: join(SCREENSHOTS_DIR, `${T}-activity.png`) });
  });

  it('opens the Commits and Changes tabs', async () => {
    await page.goto(mrUrl('/commits'));
    await page.getByText('Change on feature').first().waitFor();
    await page.goto(mrUrl('/diffs'));
    await page.getByText('export const answer = 42;').first().waitFor();
    // no line or file comment buttons, and the file's menu offers viewing only
    expect(await page.getByRole('button', { name: 'Add a comment to this line or drag for multiple lines' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Comment on this file' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Options for app.ts' }).click();
    await page.getByRole('menuitem', { name: /^View file @/ }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Edit in single-file editor' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Open in Web IDE' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await shot(page, T, 'changes');
  });

  it('sends no CSRF header and asks for the session once per load (no sign-in loop)', async () => {
    const withCsrf = sent.filter((request) => request.headers()['x-csrf-token'] !== undefined);
    expect(withCsrf.map((request) => request.url())).toEqual([]);
    // the visitor never wrote anything (GraphQL reads and Markdown rendering, one or a batch, are POSTs that write nothing)
    const reads = [/^\/api\/graphql$/, /^\/api\/v4\/markdown$/, /^\/-\/projects\/\d+\/markdown$/];
    const writes = sent.filter((request) => request.method() !== 'GET' && !reads.some((read) => read.test(new URL(request.url()).pathname)));
    expect(writes.map((request) => `${request.method()} ${request.url()}`)).toEqual([]);
    const loads = sent.filter((request) => request.resourceType() === 'document').length;
    const sessionChecks = sent.filter((request) => new URL(request.url()).pathname === '/-/session').length;
    expect(sessionChecks).toBeLessThanOrEqual(loads);
    expect(page.url()).not.toContain('/users/sign_in');
  });

  it('sees a private project exactly as a missing one: not found, offering Sign in', async () => {
    const notFoundText = async (url: string) => {
      await page.goto(url);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Sign in' }).waitFor();
      return (await page.getByRole('main').innerText()).trim();
    };
    const privateProject = await notFoundText(`/${secret.path_with_namespace}`);
    const privateFile = await notFoundText(`/${secret.path_with_namespace}/-/blob/main/README.md`);
    await shot(page, T, 'private-not-found');
    const missing = await notFoundText('/root/no-such-project');
    expect(privateProject).toBe(missing);
    expect(privateFile).toBe(missing);
    expect(await page.content()).not.toContain('launch code');
    // the private project's merge request page too
    expect(await notFoundText(`/${secret.path_with_namespace}/-/merge_requests/1`)).toBe(missing);
  });

  it('browses a public group and its projects, without New project or New subgroup', async () => {
    await page.goto('/commons');
    await page.getByRole('heading', { name: 'Commons', level: 1 }).waitFor();
    await page.getByRole('link', { name: /library/ }).first().waitFor();
    expect(await page.getByRole('link', { name: /New (project|subgroup)/ }).count()).toBe(0);
    await shot(page, T, 'group');
    await page.goto('/hidden');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByText('Hidden', { exact: true }).count()).toBe(0);
  });

  it("sends pages for users (dashboard, new merge request) to sign in and back", async () => {
    await page.goto('/dashboard/projects');
    await page.waitForURL((url) => url.pathname === '/users/sign_in' && url.searchParams.get('redirect') === '/dashboard/projects');
    await page.goto(`/${open.path_with_namespace}/-/merge_requests/new`);
    await page.waitForURL((url) => url.pathname === '/users/sign_in' && url.searchParams.get('redirect') === `/${open.path_with_namespace}/-/merge_requests/new`);
  });

  it("signs in from the prompt and comes back to the merge request with the comment form", async () => {
    await page.goto(mrUrl());
    await page.locator('#notes').getByRole('link', { name: PROMPT }).click();
    await page.waitForURL((url) => url.pathname === '/users/sign_in');
    await page.getByLabel('Username or primary email').fill('dev');
    await page.getByLabel('Password').fill(developer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === mrUrl());
    await header().getByRole('button', { name: /^User menu for / }).waitFor();
    await page.locator('#notes').getByRole('textbox', { name: 'Comment', exact: true }).waitFor();
    expect(await page.locator('#notes').getByRole('link', { name: PROMPT }).count()).toBe(0);
    await shot(page, T, 'signed-in-again');
    expect(pageErrors).toEqual([]);
  });
});
