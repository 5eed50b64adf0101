import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { solidPng } from './support/png.js';
import { browserSession } from './support/session.js';

/**
 * The settings pages: a Maintainer saves each section of General, Repository and Merge requests;
 * the Owner transfers and deletes with GitLab's typed confirmation; a group's Owner saves its
 * General page; a Developer gets no Settings entry and 'Page not found' at every settings URL.
 */
const session = browserSession('settings');

describe('project and group settings', () => {
  let maintainer: TestUser;
  let developer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let page: Page;
  let devPage: Page;
  let rootPage: Page;

  beforeAll(async () => {
    [maintainer, developer] = await Promise.all([
      session.server.createUser({ username: 'mia', name: 'Mia Maintainer' }),
      session.server.createUser({ username: 'dev', name: 'Dev Eloper' }),
    ]);
    project = await session.rest('POST', '/projects', { name: 'Settings Lab', path: 'settings-lab', visibility: 'private', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await session.rest('POST', `/projects/${project.id}/repository/branches`, { branch: 'develop', ref: 'main' });
    await session.rest('POST', '/groups', { name: 'Settings Group', path: 'settings-group', visibility: 'private' });
    [page, devPage, rootPage] = await Promise.all([session.signIn(maintainer), session.signIn(developer), session.signIn()]);
  });

  const settingsUrl = () => `/${project.path_with_namespace}/edit`;
  const form = (p: Page, name: string) => p.getByRole('form', { name });

  it('the Maintainer finds Settings in the project navigation and saves the name; an empty name gets a message', async () => {
    await page.goto(`/${project.path_with_namespace}`);
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname === settingsUrl());
    expect(await nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toContain('General');

    const naming = form(page, 'Naming, description, topics');
    await naming.getByLabel('Project name').fill('');
    await naming.getByRole('button', { name: 'Save changes' }).click();
    await naming.getByText('Please enter a project name.').waitFor();

    await naming.getByLabel('Project name').fill('Settings Lab Renamed');
    await naming.getByLabel('Project description (optional)').fill('Where settings are tried out');
    await naming.getByRole('button', { name: 'Save changes' }).click();
    await naming.getByRole('status').filter({ hasText: "Project 'Settings Lab Renamed' was successfully updated." }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Settings Lab Renamed' }).waitFor();

    // The avatar uploads on its own and shows in the project's header.
    await page.getByLabel('Choose project avatar').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(32, 32, [130, 80, 223]) });
    await page.getByText('Avatar saved.').waitFor();
    await expect.poll(async () => (await session.rest('GET', `/projects/${project.id}`)).avatar_url).toMatch(/\/logo\.png$/);
    const headerAvatar = page.locator(`img[src$="/uploads/-/system/project/avatar/${project.id}/logo.png"]`).first();
    await expect.poll(() => headerAvatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(32);
    await session.snap('general-saved', page);
    expect(await session.rest('GET', `/projects/${project.id}`)).toMatchObject({ name: 'Settings Lab Renamed', description: 'Where settings are tried out' });
  });

  it('the Maintainer sees Archive under Advanced, but neither Transfer nor Delete (Owners only)', async () => {
    await page.getByRole('button', { name: 'Expand Advanced' }).click();
    await page.getByRole('button', { name: 'Archive project' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Transfer project' }).count()).toBe(0);
  });

  it('the Maintainer saves the default branch and protects and unprotects a branch pattern', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Repository' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/settings/repository`);
    const defaults = form(page, 'Branch defaults');
    await defaults.getByLabel('Default branch').selectOption('develop');
    await defaults.getByRole('button', { name: 'Save changes' }).click();
    await defaults.getByRole('status').waitFor();
    expect((await session.rest('GET', `/projects/${project.id}`)).default_branch).toBe('develop');

    const protect = form(page, 'Protect a branch');
    await protect.getByRole('button', { name: 'Protect' }).click();
    await protect.getByText('Please enter a branch name or a wildcard such as release/*.').waitFor();
    await protect.getByLabel('Branch').fill('release/*');
    await protect.getByLabel('Allowed to push and merge').selectOption({ label: 'No one' });
    await protect.getByRole('checkbox', { name: 'Require approval from code owners' }).check();
    await protect.getByRole('button', { name: 'Protect' }).click();
    const list = page.getByRole('list', { name: 'Protected branches' });
    await list.getByText('release/*').waitFor();
    // code owner approval: set when protecting, switched off in the list
    const codeOwners = list.getByRole('button', { name: 'Code owner approval for release/*' });
    expect(await codeOwners.getAttribute('aria-pressed')).toBe('true');
    await codeOwners.click();
    await expect.poll(() => codeOwners.getAttribute('aria-pressed')).toBe('false');
    const required = async () =>
      ((await session.rest('GET', `/projects/${project.id}/protected_branches`)) as Array<{ name: string; code_owner_approval_required: boolean }>).find((branch) => branch.name === 'release/*')?.code_owner_approval_required;
    await expect.poll(required).toBe(false);
    await session.snap('repository', page);
    await list.getByRole('button', { name: 'Unprotect release/*' }).click();
    await expect.poll(() => list.getByText('release/*').count()).toBe(0);
  });

  it('the Maintainer protects a tag pattern, sees who may create it, and unprotects it after confirming', async () => {
    await page.getByText('No tags are protected.').waitFor();
    const protect = form(page, 'Protect a tag');
    await protect.getByRole('button', { name: 'Protect' }).click();
    await protect.getByText('Please enter a tag name or a wildcard such as v*.').waitFor();
    await protect.getByLabel('Tag').fill('v*');
    await protect.getByLabel('Allowed to create').selectOption({ label: 'Developers + Maintainers' });
    await protect.getByRole('button', { name: 'Protect' }).click();
    const list = page.getByRole('list', { name: 'Protected tags' });
    await list.getByText('Allowed to create: Developers + Maintainers').waitFor();
    expect(await session.rest('GET', `/projects/${project.id}/protected_tags`)).toMatchObject([{ name: 'v*', create_access_levels: [{ access_level: 30 }] }]);
    await list.scrollIntoViewIfNeeded();
    await session.snap('protected-tags', page);

    await list.getByRole('button', { name: 'Unprotect v*' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog')).first();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await list.getByText('v*', { exact: true }).waitFor();
    await list.getByRole('button', { name: 'Unprotect v*' }).click();
    const confirmation = page.getByRole('alertdialog').or(page.getByRole('dialog')).first();
    await confirmation.getByText('Tag v* will be writable for developers. Are you sure?').waitFor();
    // The dialog fades in: wait until it is fully opaque before the screenshot.
    const opacity = () =>
      confirmation.evaluate((element) => {
        let value = 1;
        for (let node: Element | null = element; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
        return value;
      });
    await expect.poll(opacity).toBe(1);
    await session.snap('unprotect-tag', page);
    await confirmation.getByRole('button', { name: 'Unprotect tag' }).click();
    await page.getByText('No tags are protected.').waitFor();
    expect(await session.rest('GET', `/projects/${project.id}/protected_tags`)).toEqual([]);
  });

  it('the Maintainer saves the merge request settings, and the API has them', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Merge requests' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/settings/merge_requests`);
    const settings = form(page, 'Merge requests');
    await settings.getByRole('radio', { name: 'Fast-forward merge' }).check();
    await settings.getByRole('radio', { name: 'Require' }).check();
    await settings.getByRole('checkbox', { name: 'All threads must be resolved' }).check();
    await settings.getByLabel('Merge request title must match regex').fill('^(feat|fix): ');
    await settings.getByLabel('Title regex description').fill('Start with feat: or fix:');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await settings.getByRole('status').waitFor();
    await session.snap('merge-requests', page);
    expect(await session.rest('GET', `/projects/${project.id}`)).toMatchObject({
      merge_method: 'ff',
      squash_option: 'always',
      only_allow_merge_if_all_discussions_are_resolved: true,
      merge_request_title_regex: '^(feat|fix): ',
      merge_request_title_regex_description: 'Start with feat: or fix:',
    });

    // A bad pattern: the API's 400 shows, and a later good save replaces it.
    await settings.getByLabel('Merge request title must match regex').fill('(unclosed');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await settings.getByRole('alert').waitFor();
    expect(await settings.getByRole('status').count()).toBe(0);
  });

  it('a Developer gets no Settings entry and "Page not found", with no tab highlighted, at every settings URL', async () => {
    await devPage.goto(`/${project.path_with_namespace}`);
    const nav = devPage.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Code' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    for (const path of [settingsUrl(), `/${project.path_with_namespace}/-/settings/repository`, `/${project.path_with_namespace}/-/settings/merge_requests`, '/groups/settings-group/-/edit']) {
      await devPage.goto(path);
      await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await devPage.getByRole('navigation', { name: 'Project' }).locator('[aria-current="page"]').count()).toBe(0);
      expect(await devPage.title()).toBe('Page not found · Tributary');
    }
    await session.snap('developer-not-found', devPage);
  });

  it('the Owner changes visibility, transfers the project into a group and deletes it after typing its path', async () => {
    await rootPage.goto(settingsUrl());
    await rootPage.getByRole('button', { name: 'Expand Visibility, project features, permissions' }).click();
    const visibility = form(rootPage, 'Visibility, project features, permissions');
    await visibility.getByRole('radio', { name: 'Internal' }).check();
    await visibility.getByRole('button', { name: 'Save changes' }).click();
    await visibility.getByRole('status').waitFor();
    expect((await session.rest('GET', `/projects/${project.id}`)).visibility).toBe('internal');

    await rootPage.getByRole('button', { name: 'Expand Advanced' }).click();
    const changePath = form(rootPage, 'Change path');
    await changePath.getByLabel('Path').fill('settings-lab-2');
    await changePath.getByRole('button', { name: 'Change path' }).click();
    await rootPage.waitForURL((url) => url.pathname === '/root/settings-lab-2/edit');
    expect((await session.rest('GET', `/projects/${project.id}`)).path_with_namespace).toBe('root/settings-lab-2');
    // And back, from the page at its new address.
    await rootPage.getByRole('button', { name: 'Expand Advanced' }).click();
    await form(rootPage, 'Change path').getByLabel('Path').fill('settings-lab');
    await form(rootPage, 'Change path').getByRole('button', { name: 'Change path' }).click();
    await rootPage.waitForURL((url) => url.pathname === '/root/settings-lab/edit');

    await rootPage.getByRole('button', { name: 'Expand Advanced' }).click();
    await rootPage.getByLabel('Select a new namespace').selectOption({ label: 'settings-group' });
    await rootPage.getByRole('button', { name: 'Transfer project' }).click();
    await rootPage.getByRole('dialog', { name: 'Transfer project?' }).getByRole('button', { name: 'Transfer project' }).click();
    await rootPage.waitForURL((url) => url.pathname === '/settings-group/settings-lab/edit');
    // The group is private: the project's visibility came down with it.
    expect(await session.rest('GET', `/projects/${project.id}`)).toMatchObject({ path_with_namespace: 'settings-group/settings-lab', visibility: 'private' });

    await rootPage.getByRole('button', { name: 'Expand Advanced' }).click();
    await rootPage.getByRole('button', { name: 'Delete project' }).click();
    const dialog = rootPage.getByRole('dialog', { name: 'Are you absolutely sure?' });
    const confirm = dialog.getByRole('button', { name: 'Yes, delete project' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Enter the following to confirm/).fill('settings-group/settings-lab');
    await session.snap('delete-confirm', rootPage);
    await confirm.click();
    await rootPage.waitForURL((url) => url.pathname === '/dashboard/projects');
  });

  it('the group Owner opens Settings from the group page and saves; a name breaking the rule gets the form\'s message', async () => {
    await rootPage.goto('/settings-group');
    await rootPage.getByRole('link', { name: 'Settings' }).click();
    await rootPage.waitForURL((url) => url.pathname === '/groups/settings-group/-/edit');
    const naming = form(rootPage, 'Naming, visibility');
    await naming.getByLabel('Group name').fill('-Settings');
    await naming.getByRole('button', { name: 'Save changes' }).click();
    await naming.getByText('Group name must start with a letter, digit, emoji, or underscore.').waitFor();
    await naming.getByLabel('Group name').fill('Settings Group (renamed)');
    await naming.getByRole('button', { name: 'Save changes' }).click();
    await naming.getByRole('status').filter({ hasText: "Group 'Settings Group (renamed)' was successfully updated." }).waitFor();
    await session.snap('group-general', rootPage);
  });

  it('the group Owner transfers the group under another group they own', async () => {
    await session.rest('POST', '/groups', { name: 'Umbrella', path: 'umbrella', visibility: 'private' });
    await rootPage.reload();
    await rootPage.getByRole('button', { name: 'Expand Advanced' }).click();
    await rootPage.getByLabel('Select parent group').selectOption({ label: 'umbrella' });
    await rootPage.getByRole('button', { name: 'Transfer group' }).click();
    await rootPage.getByRole('dialog', { name: 'Transfer group?' }).getByRole('button', { name: 'Transfer group' }).click();
    await rootPage.waitForURL((url) => url.pathname === '/groups/umbrella/settings-group/-/edit');
    expect((await session.rest('GET', '/groups/umbrella%2Fsettings-group')).full_path).toBe('umbrella/settings-group');
  });
});
