import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { browserSession } from './support/session.js';

/**
 * The CI/CD settings' Variables section: a project Maintainer adds a masked variable (the masking
 * rules show under the value as it is typed), reveals, edits and deletes it; a group Owner adds
 * one on the group's CI/CD page; a Developer gets 'Page not found'.
 */
const session = browserSession('ci-variables');

/** A dialog fades in: wait until it is opaque before a screenshot. */
async function opaque(dialog: Locator): Promise<void> {
  const opacity = () =>
    dialog.evaluate((element) => {
      let value = 1;
      for (let node: Element | null = element; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
      return value;
    });
  await expect.poll(opacity).toBe(1);
}

describe('CI/CD variables settings', () => {
  let maintainer: TestUser;
  let developer: TestUser;
  let owner: TestUser;
  let project: { id: number; path_with_namespace: string };
  let group: { id: number; full_path: string };
  let page: Page;

  beforeAll(async () => {
    [maintainer, developer, owner] = await Promise.all([
      session.server.createUser({ username: 'vera', name: 'Vera Maintainer' }),
      session.server.createUser({ username: 'devon', name: 'Devon Developer' }),
      session.server.createUser({ username: 'olga', name: 'Olga Owner' }),
    ]);
    project = await session.rest('POST', '/projects', { name: 'Pipeline Lab', path: 'pipeline-lab', visibility: 'private', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    group = await session.rest('POST', '/groups', { name: 'Platform', path: 'platform', visibility: 'private' });
    await session.rest('POST', `/groups/${group.id}/members`, { user_id: owner.id, access_level: 50 });
    await session.rest('POST', `/projects/${project.id}/variables`, { key: 'EXISTING_HIDDEN', value: 'hiddenValue123', masked_and_hidden: true, protected: true });
    page = await session.signIn(maintainer);
  });

  const ciCdUrl = () => `/${project.path_with_namespace}/-/settings/ci_cd`;

  it('the Maintainer opens CI/CD from the settings navigation and sees the variables table', async () => {
    await page.goto(`/${project.path_with_namespace}/edit`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'CI/CD' }).click();
    await page.waitForURL((url) => url.pathname === ciCdUrl());
    // the document title is set once the page has rendered, after the URL changed
    await page.waitForFunction((word) => document.title.includes(word), 'CI/CD');
    expect(await page.title()).toContain('CI/CD');
    const table = page.getByRole('table', { name: 'CI/CD variables' });
    const row = table.getByRole('row').filter({ hasText: 'EXISTING_HIDDEN' });
    await row.getByText('Masked and hidden').waitFor();
    expect(await row.getByRole('button', { name: /Reveal value/ }).count()).toBe(0);
  });

  it('adds a masked variable: the masking rules show as the value is typed, and the API has it', async () => {
    await page.getByRole('button', { name: 'Add variable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add variable' });
    await dialog.getByLabel('Key').fill('BAD-KEY');
    await dialog.getByText("Key can contain only letters, digits and '_'.").waitFor();
    await dialog.getByLabel('Key').fill('DEPLOY_TOKEN');
    await dialog.getByRole('radio', { name: 'Masked', exact: true }).check();
    await dialog.getByLabel('Value').fill('short');
    await dialog.getByText('The value must have at least 8 characters.').waitFor();
    await dialog.getByLabel('Value').fill('has spaces in it');
    await dialog.getByText('The value must be a single line without spaces.').waitFor();
    await dialog.getByLabel('Value').fill('token!!!value');
    await dialog.getByText("The value must contain only characters of the Base64 alphabet (RFC4648) and '@', ':', '.', '~', '-'.").waitFor();
    await opaque(dialog);
    await session.snap('masked-rule', page);
    await dialog.getByLabel('Value').fill('glpat-Abc123xyz789');
    await dialog.getByText('The value will be masked in job logs.').waitFor();
    await dialog.getByLabel('Protect variable').check();
    await dialog.getByLabel('Environments').fill('production');
    await dialog.getByLabel('Description (optional)').fill('Deploys to production');
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('table', { name: 'CI/CD variables' }).getByRole('row').filter({ hasText: 'DEPLOY_TOKEN' });
    await row.getByRole('cell', { name: 'production', exact: true }).waitFor();
    await row.getByText('*****').waitFor();
    await row.getByRole('button', { name: 'Reveal value of DEPLOY_TOKEN' }).click();
    await row.getByText('glpat-Abc123xyz789').waitFor();
    await session.snap('table-revealed', page);
    expect(await session.rest('GET', `/projects/${project.id}/variables/DEPLOY_TOKEN`)).toMatchObject({
      value: 'glpat-Abc123xyz789',
      masked: true,
      protected: true,
      environment_scope: 'production',
      description: 'Deploys to production',
    });
  });

  it('shows the server\'s answer for a key already taken in that environment', async () => {
    await page.getByRole('button', { name: 'Add variable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add variable' });
    await dialog.getByLabel('Key').fill('DEPLOY_TOKEN');
    await dialog.getByLabel('Environments').fill('production');
    await dialog.getByLabel('Value').fill('another');
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await dialog.getByText(/has already been taken/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('edits the variable (the key stays) and deletes it after a confirmation', async () => {
    const table = page.getByRole('table', { name: 'CI/CD variables' });
    await table.getByRole('button', { name: 'Edit DEPLOY_TOKEN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit variable' });
    expect(await dialog.getByLabel('Key').isDisabled()).toBe(true);
    await dialog.getByLabel('Value').fill('glpat-Changed000111');
    await dialog.getByLabel('Type').selectOption('file');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await table.getByRole('row').filter({ hasText: 'DEPLOY_TOKEN' }).getByText('File').waitFor();
    expect(await session.rest('GET', `/projects/${project.id}/variables/DEPLOY_TOKEN`)).toMatchObject({ value: 'glpat-Changed000111', variable_type: 'file' });

    await table.getByRole('button', { name: 'Delete DEPLOY_TOKEN' }).click();
    const confirmation = page.getByRole('alertdialog').or(page.getByRole('dialog')).first();
    await confirmation.getByText(/Delete variable DEPLOY_TOKEN \(production\)\?/).waitFor();
    await opaque(confirmation);
    await session.snap('delete-confirmation', page);
    await confirmation.getByRole('button', { name: 'Delete variable' }).click();
    await table.getByRole('row').filter({ hasText: 'DEPLOY_TOKEN' }).waitFor({ state: 'detached' });
    expect((await session.rest('GET', `/projects/${project.id}/variables`)).map((v: { key: string }) => v.key)).toEqual(['EXISTING_HIDDEN']);
  });

  it('a group Owner adds a variable on the group\'s CI/CD page', async () => {
    const ownerPage = await session.signIn(owner);
    await ownerPage.goto(`/groups/${group.full_path}/-/edit`);
    await ownerPage.getByRole('navigation', { name: 'Group settings' }).getByRole('link', { name: 'CI/CD' }).click();
    await ownerPage.waitForURL((url) => url.pathname === `/groups/${group.full_path}/-/settings/ci_cd`);
    await ownerPage.getByText('There are no variables yet.').waitFor();
    await ownerPage.getByRole('button', { name: 'Add variable' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Add variable' });
    await dialog.getByLabel('Key').fill('GROUP_REGISTRY');
    await dialog.getByLabel('Value').fill('registry.example.com');
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await dialog.waitFor({ state: 'detached' });
    await ownerPage.getByRole('table', { name: 'CI/CD variables' }).getByText('GROUP_REGISTRY', { exact: true }).waitFor();
    await session.snap('group-variables', ownerPage);
    expect(await session.rest('GET', `/groups/${group.id}/variables/GROUP_REGISTRY`)).toMatchObject({ value: 'registry.example.com', environment_scope: '*' });
  });

  it('a project Developer and a group Maintainer get "Page not found" on the CI/CD settings', async () => {
    const devPage = await session.signIn(developer);
    await devPage.goto(ciCdUrl());
    await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await devPage.getByRole('table', { name: 'CI/CD variables' }).count()).toBe(0);
    await session.rest('POST', `/groups/${group.id}/members`, { user_id: developer.id, access_level: 40 });
    await devPage.goto(`/groups/${group.full_path}/-/settings/ci_cd`);
    await devPage.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await devPage.getByRole('table', { name: 'CI/CD variables' }).count()).toBe(0);
  });
});
