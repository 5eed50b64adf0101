import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { DIFF_FIXTURE as F, pushDiffFixture } from './support/diff-fixture.js';
import { chooseInTree, escapeRegExp, viewportShot } from './support/diff-pages.js';
import { scrollSettled, signInThroughForm } from './support/flows.js';

/**
 * The Changes tab's navigation and the file header's links: choosing a file in the tree highlights it and scrolls the diff to it, and
 * it stays highlighted until the reader scrolls; the external link opens the file at the
 * head commit; "Edit in single-file editor" commits to the source branch (and refuses a
 * file changed meanwhile), and is offered only to those who may push to that branch.
 */
const T = 'diff-file-header';
const SHORT = 8;

describe('Changes tab: file tree, external link and the single-file editor', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  let git: GitCli;
  let projectId = 0;
  let projectPath = '';
  let iid = 0;
  let headSha = '';
  let reporter: TestUser;

  const changes = () => page.getByRole('region', { name: 'Changes' });
  const tree = () => page.getByRole('tree', { name: 'Changed files tree' });
  const treeItem = (path: string) => tree().getByRole('treeitem', { name: new RegExp(`^${escapeRegExp(path.slice(path.lastIndexOf('/') + 1))}\\b`) });
  const fileHeading = (path: string) => changes().getByRole('heading', { name: path, exact: true });
  const diffsUrl = () => `/${projectPath}/-/merge_requests/${iid}/diffs`;
  /** The top of a file's header, relative to the window (the app's sticky bar covers the first pixels). */
  const headingTop = async (path: string) => (await fileHeading(path).first().boundingBox())?.y ?? Number.NaN;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    const project = await api<{ id: number; path_with_namespace: string }>(server.url, server.root.token, 'POST', '/projects', { name: 'Header', path: 'header' });
    projectId = project.id;
    projectPath = project.path_with_namespace;
    await pushDiffFixture(git, git.repoUrl(projectPath), join(git.dir, 'header'));
    iid = (await api<{ iid: number }>(server.url, server.root.token, 'POST', `/projects/${projectId}/merge_requests`, { source_branch: F.source, target_branch: F.target, title: F.title })).iid;
    headSha = (await api<{ commit: { id: string } }>(server.url, server.root.token, 'GET', `/projects/${projectId}/repository/branches/${F.source}`)).commit.id;
    reporter = await server.createUser({ username: 'reader' });
    await api(server.url, server.root.token, 'POST', `/projects/${projectId}/members`, { user_id: reporter.id, access_level: 20 });

    page = await newPage(browser, server.url);
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    await page.goto(diffsUrl());
    await tree().waitFor();
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  it('highlights a file chosen in the tree, scrolls the diff to it, and keeps it highlighted', async () => {
    const target = F.smallFiles[10]!;
    await chooseInTree(page, target);
    await fileHeading(target).waitFor();
    await expect.poll(() => treeItem(target).getAttribute('aria-current')).toBe('true');
    // The file's header is at the top of the window, below the app's bar.
    await expect.poll(() => headingTop(target)).toBeLessThan(120);
    await scrollSettled(page);
    expect(await treeItem(target).getAttribute('aria-current')).toBe('true');
    expect(await tree().locator('[aria-current="true"]').count()).toBe(1);
    await viewportShot(page, T, 'tree-click');

    // The last file cannot reach the top of the window; it is still the one highlighted.
    const last = F.submodule;
    await chooseInTree(page, last);
    await fileHeading(last).waitFor();
    await expect.poll(() => treeItem(last).getAttribute('aria-current')).toBe('true');
    await scrollSettled(page);
    expect(await treeItem(last).getAttribute('aria-current')).toBe('true');
    await viewportShot(page, T, 'tree-click-last');

    // Scrolling by hand hands the highlight back to the file at the top.
    await page.mouse.move(800, 400);
    await page.mouse.wheel(0, -1500);
    await expect.poll(() => treeItem(last).getAttribute('aria-current')).toBeNull();
    expect(await tree().locator('[aria-current="true"]').count()).toBe(1);
  });

  it('links the file at the head commit from its header', async () => {
    await chooseInTree(page, F.editable);
    await fileHeading(F.editable).waitFor();
    const external = changes().getByRole('link', { name: `View file @ ${headSha.slice(0, SHORT)}: ${F.editable}` });
    await external.click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/blob/${headSha}/${F.editable}`);
    await page.getByText(F.editableLine).first().waitFor();
    await viewportShot(page, T, 'external-link');
    await page.goBack();
    await tree().waitFor();
  });

  it('edits a file in the single-file editor and commits it to the source branch', async () => {
    await chooseInTree(page, F.editable);
    await fileHeading(F.editable).waitFor();
    await changes().getByRole('button', { name: `Options for ${F.editable}` }).first().click();
    await page.getByRole('menuitem', { name: 'Edit in single-file editor' }).click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/edit/${F.source}/${F.editable}` && url.searchParams.get('from_merge_request_iid') === String(iid));
    await page.getByRole('heading', { level: 1, name: 'Edit file' }).waitFor();
    const editor = page.getByRole('textbox', { name: `Contents of ${F.editable}` });
    await expect.poll(() => editor.inputValue()).toBe(`${F.editableLine}\n`);
    expect(await page.getByRole('button', { name: 'Commit changes' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Commit message').inputValue()).toBe('Update greeting.ts');

    await editor.fill('export const GREETING = "Hello, editor";\n');
    await page.getByLabel('Commit message').fill('Greet from the single-file editor');
    await viewportShot(page, T, 'editor');
    await page.getByRole('button', { name: 'Commit changes' }).click();

    // Back on the merge request's changes, and the branch has the commit.
    await page.waitForURL((url) => url.pathname === diffsUrl());
    const branch = await api<{ commit: { id: string; title: string } }>(server.url, server.root.token, 'GET', `/projects/${projectId}/repository/branches/${F.source}`);
    expect(branch.commit.title).toBe('Greet from the single-file editor');
    const raw = await fetch(new URL(`/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(F.editable)}/raw?ref=${F.source}`, server.url), { headers: { 'PRIVATE-TOKEN': server.root.token } });
    expect(await raw.text()).toBe('export const GREETING = "Hello, editor";\n');
    // The merge request takes the push as a new version, and the Changes tab shows the edited line.
    await expect.poll(async () => (await api<unknown[]>(server.url, server.root.token, 'GET', `/projects/${projectId}/merge_requests/${iid}/versions`)).length, { timeout: 15_000 }).toBe(2);
    await page.reload();
    await chooseInTree(page, F.editable);
    await changes().getByText('export const GREETING = "Hello, editor";').first().waitFor();
  });

  it('refuses to overwrite a file that changed after the editor opened it', async () => {
    await page.goto(`/${projectPath}/-/edit/${F.source}/${F.editable}?from_merge_request_iid=${iid}`);
    const editor = page.getByRole('textbox', { name: `Contents of ${F.editable}` });
    await expect.poll(() => editor.inputValue()).toContain('Hello, editor');
    // Someone else commits to the branch meanwhile.
    await api(server.url, server.root.token, 'PUT', `/projects/${projectId}/repository/files/${encodeURIComponent(F.editable)}`, {
      branch: F.source,
      content: 'export const GREETING = "Hello from elsewhere";\n',
      commit_message: 'Change the greeting elsewhere',
    });
    await editor.fill('export const GREETING = "Lost update";\n');
    await page.getByRole('button', { name: 'Commit changes' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('You are attempting to update a file that has changed since you started editing it.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${projectPath}/-/edit/${F.source}/${F.editable}`);
    await viewportShot(page, T, 'editor-conflict');
    const branch = await api<{ commit: { title: string } }>(server.url, server.root.token, 'GET', `/projects/${projectId}/repository/branches/${F.source}`);
    expect(branch.commit.title).toBe('Change the greeting elsewhere');
  });

  it('offers the editor only to those who may push to the source branch', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const readerPage = await context.newPage();
    try {
      await signInThroughForm(readerPage, { username: reporter.username, password: reporter.password });
      await readerPage.goto(diffsUrl());
      await readerPage.getByRole('tree', { name: 'Changed files tree' }).waitFor();
      await chooseInTree(readerPage, F.editable);
      const region = readerPage.getByRole('region', { name: 'Changes' });
      await region.getByRole('heading', { name: F.editable, exact: true }).waitFor();
      await region.getByRole('button', { name: `Options for ${F.editable}` }).first().click();
      await readerPage.getByRole('menuitem', { name: /^View file @/ }).waitFor();
      expect(await readerPage.getByRole('menuitem', { name: 'Edit in single-file editor' }).count()).toBe(0);
      expect(await readerPage.getByRole('menuitem', { name: 'Open in Web IDE' }).count()).toBe(0);
      await viewportShot(readerPage, T, 'reporter-menu');
      await readerPage.keyboard.press('Escape');

      // The editor's address itself says why there is nothing to edit.
      await readerPage.goto(`/${projectPath}/-/edit/${F.source}/${F.editable}`);
      await readerPage.getByText(`You are not allowed to push to ${F.source}, so you cannot edit its files.`).waitFor();
      expect(await readerPage.getByRole('textbox', { name: `Contents of ${F.editable}` }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
