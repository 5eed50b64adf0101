import type { Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../server/src/test-support/server.js';
import { api } from './support/api.js';
import { launchBrowser, newPage, type LaunchedBrowser } from './support/browser.js';
import { shot, signInThroughForm } from './support/flows.js';

/** Loading, empty and error states as a person sees them, and the sign-in form by keyboard. */
const T = 'states';

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Requests for one project by its full path (GET /api/v4/projects/<encoded path>); unroute() needs this same function. */
const projectRequest = (fullPath: string) => (url: URL) => url.pathname === `/api/v4/projects/${encodeURIComponent(fullPath)}`;

describe('states: loading, empty, error, keyboard', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let erin: TestUser;
  const pages: Page[] = [];
  const empty = { name: 'Empty One', path: 'root/empty-one', url: '' };

  async function freshPage(): Promise<Page> {
    const page = await newPage(browser, server.url);
    pages.push(page);
    return page;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    erin = await server.createUser({ username: 'erin', name: 'Erin Empty' });
    const created = await api<{ http_url_to_repo: string }>(server.url, server.root.token, 'POST', '/projects', {
      name: empty.name,
      path: 'empty-one',
      visibility: 'private',
    });
    empty.url = created.http_url_to_repo;
  });

  afterAll(async () => {
    for (const page of pages) await page.context().close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('the dashboard of a user with no projects shows its empty state, leading to "New project"', async () => {
    const page = await freshPage();
    await signInThroughForm(page, { username: erin.username, password: erin.password });
    const emptyState = page.getByRole('heading', { name: "You don't have any projects yet" });
    await emptyState.waitFor();
    // Two ways to a new project: the header action and the empty state's own button.
    await expect.poll(() => page.getByRole('link', { name: 'New project' }).count()).toBe(2);
    await shot(page, T, 'dashboard-empty');

    await page.getByRole('link', { name: 'New project' }).last().click();
    await page.getByRole('heading', { level: 1, name: 'Create blank project' }).waitFor();
  });

  it('an empty project shows the clone URL and the push instructions', async () => {
    const page = await freshPage();
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    await page.goto(`/${empty.path}`);
    await page.getByRole('heading', { name: 'The repository for this project is empty' }).waitFor();
    expect(await page.getByLabel('Clone with HTTP').inputValue()).toBe(empty.url);
    for (const heading of ['Command line instructions', 'Git global setup', 'Create a new repository', 'Push an existing folder', 'Push an existing Git repository']) {
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.getByText(`git remote add origin ${empty.url}`).first().waitFor();
    await page.getByText('git push --set-upstream origin main').first().waitFor();
    await shot(page, T, 'empty-project');

    // The other sections of an empty project say so too.
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Branches' }).click();
    await page.getByRole('heading', { name: 'No branches yet' }).waitFor();
    expect(await page.getByRole('button', { name: 'New branch' }).count()).toBe(0);
    await shot(page, T, 'empty-project-branches');
  });

  it('shows a loading state while the project loads, then the project', async () => {
    const page = await freshPage();
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const request = projectRequest(empty.path);
    await page.route(request, async (route: Route) => {
      await released;
      await route.continue();
    });

    await page.goto(`/${empty.path}`);
    const loading = page.getByRole('status').filter({ hasText: 'Loading' });
    await loading.waitFor();
    await shot(page, T, 'project-loading');

    release();
    await page.getByRole('heading', { level: 1, name: empty.name }).waitFor();
    await loading.waitFor({ state: 'detached' });
    await page.unroute(request);
  });

  it('shows the error when the project cannot be loaded, and "Try again" recovers', async () => {
    const page = await freshPage();
    await signInThroughForm(page, { username: 'root', password: server.root.password });
    const request = projectRequest(empty.path);
    await page.route(request, (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) }),
    );

    await page.goto(`/${empty.path}`);
    // Server errors are retried twice before the page gives up and says so.
    const alert = page.getByRole('alert').filter({ hasText: '500 Internal Server Error' });
    await alert.waitFor();
    await shot(page, T, 'project-error');

    await page.unroute(request);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: empty.name }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('a wrong password on the sign-in form shows "Invalid login or password."', async () => {
    const page = await freshPage();
    await page.goto('/users/sign_in');
    await page.getByLabel('Username or primary email').fill('root');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('alert').filter({ hasText: 'Invalid login or password.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    // What was typed stays, so the person can correct it.
    expect(await page.getByLabel('Username or primary email').inputValue()).toBe('root');
    await shot(page, T, 'sign-in-invalid');
  });

  it('the sign-in form can be filled and submitted with the keyboard only', async () => {
    const page = await freshPage();
    await page.goto('/users/sign_in');
    const login = page.getByLabel('Username or primary email');
    const password = page.getByLabel('Password');
    // The username field has the focus when the page opens.
    await login.waitFor();
    await expect.poll(() => isFocused(login)).toBe(true);
    await page.keyboard.type('root');
    await page.keyboard.press('Tab');
    expect(await isFocused(password)).toBe(true);
    await page.keyboard.type(server.root.password);
    await shot(page, T, 'sign-in-keyboard-filled');
    await page.keyboard.press('Enter');

    await page.getByRole('button', { name: /^User menu for / }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('list', { name: 'Your projects' }).getByRole('link', { name: new RegExp(empty.name) }).waitFor();
    await shot(page, T, 'sign-in-keyboard-done');
  });
});
