import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, startTestServer, type GitCli, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api, apiCall } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { FIXTURE, pushFixtureRepo, shot, signInThroughForm } from './support/flows.js';

/**
 * Root adds a Developer through the members page; the Developer, in a browser
 * of their own, sees the project, may create branches but not delete protected
 * ones, and gets "Page not found" for a private project they are not in.
 */
const T = 'members';

describe('members and permissions: a Developer in a private project', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let rootPage: Page;
  let devPage: Page;
  let dev: TestUser;
  let git: GitCli;
  const project = { name: 'Inventory', path: 'root/inventory', id: 0 };
  const hidden = { name: 'Secret Plans', path: 'root/secret-plans' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    dev = await server.createUser({ username: 'dana', name: 'Dana Developer' });

    // Arranged through the API: the projects, their branches and a second protected branch.
    const created = await api<{ id: number; http_url_to_repo: string }>(server.url, server.root.token, 'POST', '/projects', {
      name: project.name,
      path: 'inventory',
      visibility: 'private',
    });
    project.id = created.id;
    await api(server.url, server.root.token, 'POST', '/projects', { name: hidden.name, path: 'secret-plans', visibility: 'private' });
    git = gitCli({ url: server.url, username: 'root', password: server.root.password });
    await pushFixtureRepo(git, created.http_url_to_repo);
    await git.git(['push', 'origin', 'main:refs/heads/stable'], { cwd: 'fixture' });
    await api(server.url, server.root.token, 'POST', `/projects/${project.id}/protected_branches`, {
      name: 'stable',
      push_access_level: 40,
      merge_access_level: 40,
    });

    rootPage = await newPage(browser, server.url);
    await signInThroughForm(rootPage, { username: 'root', password: server.root.password });
  });

  afterAll(async () => {
    await git?.close();
    await browser?.close();
    await server?.close();
  });

  it('root sees Delete on the protected, non-default branch (the control the Developer must not get)', async () => {
    await rootPage.goto(`/${project.path}/-/branches`);
    const branches = rootPage.getByRole('list', { name: 'Branches' });
    await branches.getByRole('link', { name: 'stable', exact: true }).waitFor();
    await branches.getByRole('button', { name: 'Delete branch stable' }).waitFor();
    // Nobody deletes the default branch.
    expect(await branches.getByRole('button', { name: 'Delete branch main' }).count()).toBe(0);
    await shot(rootPage, T, 'root-branches');
  });

  it('the branch search box follows the URL through a link, Back and Forward, and never writes an old search back', async () => {
    const box = rootPage.getByRole('searchbox', { name: 'Search branches' });
    const branches = rootPage.getByRole('list', { name: 'Branches' });
    const searchParam = () => new URL(rootPage.url()).searchParams.get('search');
    // Longer than the search debounce: a stale box would have rewritten the URL by then.
    const outlastDebounce = () => rootPage.waitForTimeout(700);

    await box.fill('stab');
    await rootPage.waitForURL((url) => url.searchParams.get('search') === 'stab');
    await expect.poll(() => branches.getByRole('link', { name: 'main', exact: true }).count()).toBe(0);

    // A link to the unfiltered list pushes a new entry: the box empties and stays empty.
    await rootPage.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Branches' }).click();
    await rootPage.waitForURL((url) => url.pathname === `/${project.path}/-/branches` && !url.searchParams.has('search'));
    await expect.poll(() => box.inputValue()).toBe('');
    await branches.getByRole('link', { name: 'main', exact: true }).waitFor();
    await outlastDebounce();
    expect(searchParam()).toBeNull();

    // Back to the search: the box shows it again.
    await rootPage.goBack();
    await expect.poll(searchParam).toBe('stab');
    await expect.poll(() => box.inputValue()).toBe('stab');
    await expect.poll(() => branches.getByRole('link', { name: 'main', exact: true }).count()).toBe(0);

    // Type a new search, then go Forward and Back over it: each entry keeps its own search.
    await rootPage.goForward();
    await expect.poll(() => box.inputValue()).toBe('');
    await box.fill('mai');
    await rootPage.waitForURL((url) => url.searchParams.get('search') === 'mai');
    await rootPage.goBack();
    await expect.poll(() => box.inputValue()).toBe('stab');
    await outlastDebounce();
    expect(searchParam()).toBe('stab');
    await rootPage.goForward();
    await expect.poll(() => box.inputValue()).toBe('mai');
    await outlastDebounce();
    expect(searchParam()).toBe('mai');

    // Clearing the box removes the search from the URL.
    await box.fill('');
    await rootPage.waitForURL((url) => !url.searchParams.has('search'));
    await branches.getByRole('link', { name: 'main', exact: true }).waitFor();
  });

  it('root adds the user as Developer through the members page', async () => {
    await rootPage.goto(`/${project.path}/-/project_members`);
    const form = rootPage.getByRole('form', { name: 'Add member' });
    await form.getByLabel('Username').fill(dev.username);
    await form.getByLabel('Access level').selectOption({ label: 'Developer' });
    await form.getByRole('button', { name: 'Add member' }).click();

    await rootPage.getByText(`@${dev.username} was added to ${project.name}.`).waitFor();
    const members = rootPage.getByRole('list', { name: 'Members' });
    const role = members.getByRole('combobox', { name: `Access level for ${dev.username}` });
    await role.waitFor();
    await expect.poll(() => role.inputValue()).toBe('30');
    await shot(rootPage, T, 'developer-added');

    const member = await api<{ access_level: number }>(server.url, server.root.token, 'GET', `/projects/${project.id}/members/${dev.id}`);
    expect(member.access_level).toBe(30);
  });

  it('the Developer, signed in in a fresh context, sees the project', async () => {
    devPage = await newPage(browser, server.url);
    await signInThroughForm(devPage, { username: dev.username, password: dev.password });
    const list = devPage.getByRole('list', { name: 'Your projects' });
    await list.getByRole('link', { name: new RegExp(project.name) }).click();
    await devPage.waitForURL((url) => url.pathname === `/${project.path}`);
    await devPage.getByRole('heading', { level: 1, name: project.name }).waitFor();
    await devPage.getByRole('table', { name: 'Files' }).getByRole('link', { name: 'src' }).waitFor();
    await shot(devPage, T, 'developer-project');
  });

  it('the Developer gets no Delete button on protected branches', async () => {
    await devPage.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Branches' }).click();
    const branches = devPage.getByRole('list', { name: 'Branches' });
    await branches.getByRole('link', { name: 'stable', exact: true }).waitFor();
    // An unprotected branch is theirs to delete; the page has loaded its controls.
    await branches.getByRole('button', { name: `Delete branch ${FIXTURE.branch}` }).waitFor();
    expect(await branches.getByRole('button', { name: 'Delete branch stable' }).count()).toBe(0);
    expect(await branches.getByRole('button', { name: 'Delete branch main' }).count()).toBe(0);
    await shot(devPage, T, 'developer-branches');
  });

  it('the Developer creates a branch through the branches page', async () => {
    await devPage.getByRole('button', { name: 'New branch' }).click();
    const dialog = devPage.getByRole('dialog', { name: 'New branch' });
    await dialog.getByLabel('Branch name').fill('dana/topic');
    expect(await dialog.getByLabel('Create from').inputValue()).toBe('main');
    await shot(devPage, T, 'developer-new-branch-dialog');
    await dialog.getByRole('button', { name: 'Create branch' }).click();

    await dialog.waitFor({ state: 'detached' });
    await devPage.getByText('Branch dana/topic was created.').waitFor();
    await devPage.getByRole('list', { name: 'Branches' }).getByRole('link', { name: 'dana/topic', exact: true }).waitFor();
    await shot(devPage, T, 'developer-branch-created');

    const branch = await apiCall<{ name: string }>(server.url, server.root.token, 'GET', `/projects/${project.id}/repository/branches/dana%2Ftopic`);
    expect(branch.status).toBe(200);
  });

  it('the Developer sees "Page not found" for a private project they are not a member of', async () => {
    await devPage.goto(`/${hidden.path}`);
    await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await devPage.getByRole('heading', { name: hidden.name }).count()).toBe(0);
    await shot(devPage, T, 'developer-private-not-found');

    // The same for its sub-pages, and the API agrees (404, never 403).
    await devPage.goto(`/${hidden.path}/-/branches`);
    await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect((await apiCall(server.url, dev.token, 'GET', `/projects/${encodeURIComponent(hidden.path)}`)).status).toBe(404);
  });
});
