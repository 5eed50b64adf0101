import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer } from '../server/src/test-support/server.js';
import { apiCall } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { createGroupThroughUI, createProjectThroughUI, FIXTURE, pushFixtureRepo, shot, signInThroughForm } from './support/flows.js';

/**
 * The foundation milestone's scenario, as root, start to end: sign in, create a
 * group and a private project, push with git, browse files, branches and
 * commits, and use a personal access token created in the web app until it is
 * revoked. The steps share one page and run in order.
 */
const T = 'foundation';

describe('foundation: from sign-in to a pushed, browsable private project', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let page: Page;
  const gits: GitCli[] = [];
  let projectPath = '';
  let cloneUrl = '';
  let token = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    page = await newPage(browser, server.url);
  });

  afterAll(async () => {
    await Promise.all(gits.map((git) => git.close()));
    await browser?.close();
    await server?.close();
  });

  it('signs in as root through the sign-in form', async () => {
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await shot(page, T, 'signed-in');
  });

  it('creates a group and a private project in it through the UI', async () => {
    const groupPath = await createGroupThroughUI(page, 'Platform Team');
    expect(groupPath).toBe('platform-team');
    await shot(page, T, 'group-created');

    projectPath = await createProjectThroughUI(page, { name: 'Web Shop', namespacePath: groupPath, visibility: 'Private' });
    expect(projectPath).toBe('platform-team/web-shop');
    // A new project without a README is empty: it shows how to push.
    await page.getByRole('heading', { name: 'The repository for this project is empty' }).waitFor();
    await expect.poll(() => page.getByRole('img', { name: 'Private' }).count()).toBeGreaterThan(0);
    await shot(page, T, 'project-created-empty');

    cloneUrl = await page.getByLabel('Clone with HTTP').inputValue();
    expect(cloneUrl).toBe(`${server.url}/${projectPath}.git`);
  });

  it("pushes a repository with git over HTTP using root's password, and shows its file tree", async () => {
    const git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    gits.push(git);
    await pushFixtureRepo(git, cloneUrl);

    await page.reload();
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByRole('link', { name: 'src' }).waitFor();
    await expect.poll(() => files.getByRole('link', { name: 'docs' }).isVisible()).toBe(true);
    await expect.poll(() => files.getByRole('link', { name: 'README.md' }).isVisible()).toBe(true);
    // The README is shown below the tree, its Markdown rendered; the last commit above it.
    const readme = page.getByRole('region', { name: 'README.md' });
    await readme.getByRole('heading', { name: FIXTURE.readmeHeading }).waitFor();
    await page.getByRole('link', { name: FIXTURE.mainCommitTitle }).first().waitFor();
    await expect.poll(() => page.getByLabel('Clone with HTTP').inputValue()).toBe(cloneUrl);
    await shot(page, T, 'file-tree');
  });

  it('opens a nested directory and src/app.ts with highlighted content', async () => {
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByRole('link', { name: 'docs' }).click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/tree/main/docs`);
    await files.getByRole('link', { name: 'guide' }).click();
    await files.getByRole('link', { name: 'intro.md' }).waitFor();
    await shot(page, T, 'nested-directory');

    await page.goto(`/${projectPath}`);
    await files.getByRole('link', { name: 'src' }).click();
    await files.getByRole('link', { name: 'app.ts' }).click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/blob/main/src/app.ts`);
    const code = page.getByRole('table', { name: 'Contents of app.ts' });
    const line = code.getByRole('cell', { name: FIXTURE.appLine, exact: true });
    await line.waitFor();
    expect(await line.isVisible()).toBe(true);
    // Highlighted: highlight.js marks keywords with a class; there is no role or name for colour.
    const keyword = code.locator('.hljs-keyword').first();
    await keyword.waitFor();
    expect(await keyword.textContent()).toMatch(/^(const|export|function|return)$/);
    const colours = await keyword.evaluate((element) => [getComputedStyle(element).color, getComputedStyle(element.closest('td')!).color]);
    expect(colours[0]).not.toBe(colours[1]);
    await shot(page, T, 'blob-highlighted');
  });

  it('switches to the second branch with the ref switcher and sees its own file', async () => {
    await page.goto(`/${projectPath}`);
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByRole('link', { name: 'src' }).waitFor();
    expect(await files.getByRole('link', { name: FIXTURE.branchOnlyFile }).count()).toBe(0);

    await page.getByRole('button', { name: 'Switch branch/tag, current: main' }).click();
    const option = page.getByRole('option', { name: FIXTURE.branch });
    await option.waitFor();
    await shot(page, T, 'ref-switcher-open');
    await option.click();

    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/tree/${FIXTURE.branch}`);
    await files.getByRole('link', { name: FIXTURE.branchOnlyFile }).waitFor();
    await page.getByRole('button', { name: `Switch branch/tag, current: ${FIXTURE.branch}` }).waitFor();
    await shot(page, T, 'second-branch');
  });

  it('opens the commits page and sees the commit titles', async () => {
    await page.goto(`/${projectPath}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Commits' }).click();
    await page.waitForURL((url) => url.pathname === `/${projectPath}/-/commits/main`);
    await page.getByRole('link', { name: FIXTURE.mainCommitTitle }).waitFor();
    // The feature branch's commit is not on main.
    expect(await page.getByRole('link', { name: FIXTURE.branchCommitTitle }).count()).toBe(0);
    await shot(page, T, 'commits');
  });

  it('creates a personal access token with the api scope and shows it once', async () => {
    await page.goto('/-/user_settings/personal_access_tokens');
    await page.getByRole('heading', { level: 1, name: 'Personal access tokens' }).waitFor();
    await page.getByRole('button', { name: 'Add new token' }).click();
    const form = page.getByRole('form', { name: 'Add a personal access token' });
    await form.getByLabel('Token name').fill('e2e clone');
    await form.getByRole('checkbox', { name: 'api', exact: true }).check();
    await shot(page, T, 'token-form');
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByLabel('Your new personal access token');
    await shown.waitFor();
    token = await shown.inputValue();
    expect(token.length).toBeGreaterThan(20);
    const tokens = page.getByRole('table', { name: 'Active personal access tokens' });
    await tokens.getByRole('row', { name: /e2e clone/ }).waitFor();
    await shot(page, T, 'token-created');

    // Shown once: after a reload the value is gone, the token is still listed.
    await page.reload();
    await tokens.getByRole('row', { name: /e2e clone/ }).waitFor();
    expect(await page.getByLabel('Your new personal access token').count()).toBe(0);
  });

  it('uses the token for GET /api/v4/user and for git clone', async () => {
    const me = await apiCall<{ username: string; is_admin: boolean }>(server.url, token, 'GET', '/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('root');

    const git = gitCli({ url: server.url, username: 'any-name', password: token });
    gits.push(git);
    await git.git(['clone', cloneUrl, 'with-token']);
    const log = await git.git(['log', '--format=%s', '-1'], { cwd: 'with-token' });
    expect(log.stdout.trim()).toBe(FIXTURE.mainCommitTitle);
  });

  it('revokes the token in the UI, after which git clone with it fails', async () => {
    const tokens = page.getByRole('table', { name: 'Active personal access tokens' });
    await tokens.getByRole('button', { name: 'Revoke e2e clone' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke e2e clone?' }).or(page.getByRole('dialog', { name: 'Revoke e2e clone?' }));
    await dialog.waitFor();
    await shot(page, T, 'token-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await tokens.getByRole('row', { name: /e2e clone/ }).waitFor({ state: 'detached' });
    await shot(page, T, 'token-revoked');

    const git = gitCli({ url: server.url, username: 'any-name', password: token });
    gits.push(git);
    const clone = await git.git(['clone', cloneUrl, 'after-revoke'], { allowFailure: true });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/Authentication failed|HTTP Basic: Access denied/);
    expect((await apiCall(server.url, token, 'GET', '/user')).status).toBe(401);
  });
});
