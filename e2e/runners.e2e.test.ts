import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { browserSession } from './support/session.js';

/**
 * The CI/CD settings' Runners section: a Maintainer creates a project runner, sees its glrt- token
 * once with the commands to register it, pauses, resumes and removes it; a runner that verified
 * its token shows Online; a Developer gets 'Page not found' at the CI/CD settings URL.
 */
const session = browserSession('runners');

describe('project runners settings', () => {
  let maintainer: TestUser;
  let developer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let page: Page;
  let devPage: Page;

  beforeAll(async () => {
    [maintainer, developer] = await Promise.all([
      session.server.createUser({ username: 'rita', name: 'Rita Runner' }),
      session.server.createUser({ username: 'devon', name: 'Devon Developer' }),
    ]);
    project = await session.rest('POST', '/projects', { name: 'Runner Lab', path: 'runner-lab', visibility: 'private', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    [page, devPage] = await Promise.all([session.signIn(maintainer), session.signIn(developer)]);
  });

  const ciCdUrl = () => `/${project.path_with_namespace}/-/settings/ci_cd`;

  it('the Maintainer reaches CI/CD from the settings navigation and sees no runners yet', async () => {
    await page.goto(`/${project.path_with_namespace}/edit`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'CI/CD' }).click();
    await page.waitForURL((url) => url.pathname === ciCdUrl());
    await page.getByRole('heading', { name: 'Runners' }).waitFor();
    await page.getByText('This project has no runners yet.').waitFor();
    expect(await page.title()).toContain('CI/CD');
  });

  it('creates a runner: tags are needed without untagged jobs, then the token shows once with both commands', async () => {
    await page.getByRole('button', { name: 'New project runner' }).click();
    const form = page.getByRole('form', { name: 'New project runner' });
    await form.getByRole('button', { name: 'Create runner' }).click();
    await form.getByText("Add tags or select 'Run untagged jobs'.").waitFor();

    await form.getByLabel('Tags').fill('docker, linux');
    await form.getByLabel('Runner description').fill('Build box');
    await form.getByLabel('Protected').check();
    await form.getByLabel('Maximum job timeout').fill('3600');
    await session.snap('form', form);
    await form.getByRole('button', { name: 'Create runner' }).click();

    const token = page.getByRole('textbox', { name: 'Runner authentication token' });
    await token.waitFor();
    const value = await token.inputValue();
    expect(value).toMatch(/^glrt-/);
    const origin = new URL(page.url()).origin;
    expect(await page.getByLabel('gitlab-runner command', { exact: true }).textContent()).toBe(`gitlab-runner register --url ${origin} --token ${value}`);
    expect(await page.getByLabel('Tributary runner command', { exact: true }).textContent()).toBe(`npx tributary runner --url ${origin} --token ${value}`);
    await page.getByRole('button', { name: 'Copy runner authentication token' }).waitFor();
    const list = page.getByRole('list', { name: 'Runners' });
    await list.getByText('Build box').waitFor();
    await list.getByText('Never contacted').waitFor();
    await session.snap('created', page);

    const [runner] = await session.rest('GET', `/projects/${project.id}/runners`);
    expect(await session.rest('GET', `/runners/${runner.id}`)).toMatchObject({ description: 'Build box', tag_list: ['docker', 'linux'], run_untagged: false, access_level: 'ref_protected', maximum_timeout: 3600 });

    // The token verifies as gitlab-runner does it, and the list then shows the runner Online.
    const verified = await fetch(`${session.server.url}/api/v4/runners/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: value, system_id: 's_e2e' }) });
    expect(verified.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await token.count()).toBe(0);
    await page.reload();
    await list.getByText('Online').waitFor();
  });

  it('pauses, resumes and removes the runner', async () => {
    const list = page.getByRole('list', { name: 'Runners' });
    await list.getByRole('button', { name: 'Pause Build box' }).click();
    await list.getByRole('button', { name: 'Resume Build box' }).waitFor();
    await list.getByText('Paused').waitFor();
    await session.snap('paused', page);
    await list.getByRole('button', { name: 'Resume Build box' }).click();
    await list.getByRole('button', { name: 'Pause Build box' }).waitFor();

    await list.getByRole('button', { name: 'Remove Build box' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog')).first();
    await dialog.getByText('Runner Build box will be removed and can no longer pick up jobs. Are you sure?').waitFor();
    await dialog.getByRole('button', { name: 'Remove runner' }).click();
    await page.getByText('This project has no runners yet.').waitFor();
    expect(await session.rest('GET', `/projects/${project.id}/runners`)).toEqual([]);
  });

  it('a Developer gets "Page not found" at the CI/CD settings URL', async () => {
    await devPage.goto(ciCdUrl());
    await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});
