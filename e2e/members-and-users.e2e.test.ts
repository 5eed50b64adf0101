import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/flows.js';
import { browserSession } from './support/session.js';

/**
 * Members and users: the add form suggests usernames, a failed add replaces (never stacks on) the
 * success banner, an empty form says what is missing; creating a user says so; a sign-in shows as
 * the user's 'Last activity' in the admin list; the new group form refuses a name that breaks its rule.
 */
const session = browserSession('members-users');

describe('members, users and form messages', () => {
  let page: Page;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    await session.server.createUser({ username: 'alice', name: 'Alice Anders' });
    project = await session.rest('POST', '/projects', { name: 'Members Lab', path: 'members-lab', visibility: 'private' });
    page = await session.signIn();
  });

  it('suggests usernames, says an empty username is missing, and a failed add replaces the success banner', async () => {
    await page.goto(`/${project.path_with_namespace}/-/project_members`);
    const form = page.getByRole('form', { name: 'Add member' });
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.getByText('Please enter a username.').waitFor();

    await form.getByLabel('Username').fill('ali');
    await expect.poll(() => page.locator('datalist option[value="alice"]').count()).toBe(1);
    await form.getByLabel('Username').fill('alice');
    await form.getByRole('button', { name: 'Add member' }).click();
    const success = page.getByRole('status').filter({ hasText: 'was added to' });
    await success.waitFor();

    await form.getByLabel('Username').fill('nobody-by-that-name');
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.getByRole('alert').waitFor();
    expect(await success.count()).toBe(0);
    await session.snap('failed-add', page);
  });

  it('creating a user confirms it, and the user\'s sign-in shows as their last activity', async () => {
    await page.goto('/admin/users/new');
    await page.getByRole('textbox', { name: /^Name\b/ }).fill('Bob Builder');
    await page.getByRole('textbox', { name: /^Username/ }).fill('bob');
    await page.getByRole('textbox', { name: /^Email/ }).fill('bob@example.com');
    await page.getByLabel(/^Password/).fill('a-long-password-for-bob');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users');
    await page.getByRole('status').filter({ hasText: 'User was successfully created.' }).waitFor();
    const bobRow = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: '@bob' });
    await expect.poll(() => bobRow.getByRole('cell').nth(3).textContent()).toBe('Never');

    const bobPage = await session.openPage();
    await signInThroughForm(bobPage, { username: 'bob', password: 'a-long-password-for-bob' });
    await page.reload();
    await expect.poll(() => bobRow.getByRole('cell').nth(3).textContent()).not.toBe('Never');
    await session.snap('admin-users', page);
  });

  it('the new group form says what is wrong instead of disabling its button', async () => {
    await page.goto('/groups/new');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('Please enter a group name.').waitFor();
    await page.getByLabel('Group name').fill('(Parens first)');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('Group name must start with a letter, digit, emoji, or underscore.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/groups/new');
  });
});
