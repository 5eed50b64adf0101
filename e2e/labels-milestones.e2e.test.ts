import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shot } from './support/flows.js';
import { browserSession, createMergeRequestFixture } from './support/session.js';

/**
 * Labels and milestones in the web app against a real server: the project's Labels page, the
 * merge request sidebar's Labels picker (search, one value per scope) and Milestone picker, the
 * system notes they leave, the list's Label filter, and closing a milestone on its page.
 */
const T = 'labels-milestones';

describe('labels and milestones', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const sidebar = () => page.getByRole('complementary', { name: 'Merge request details' });
  const labelsBlock = () => sidebar().getByRole('region', { name: 'Labels' });
  const milestoneBlock = () => sidebar().getByRole('region', { name: 'Milestone' });

  beforeAll(async () => {
    ({ project, iid } = await createMergeRequestFixture(session, { path: 'planned', title: 'Plan the release' }));
    for (const [name, color, description] of [
      ['bug', '#d9534f', 'Something is broken'],
      ['priority::high', '#cc338b', 'Do it first'],
      ['priority::low', '#009966', 'Later'],
      ['documentation', '#eee600', 'Docs only'],
    ]) {
      await rest('POST', `/projects/${project.id}/labels`, { name, color, description });
    }
    await rest('POST', `/projects/${project.id}/milestones`, { title: 'v1.0', due_date: '2999-01-31' });
    page = await session.signIn();
  });

  it('lists the project’s labels as coloured tokens', async () => {
    await page.goto(`/${project.path_with_namespace}/-/labels`);
    const list = page.getByRole('list', { name: 'Labels' });
    await list.getByText('Something is broken').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(4);
    expect(await list.locator('[data-label="priority::high"]').textContent()).toBe('priorityhigh');
    await shot(page, T, 'labels-page');
  });

  it('makes, refuses, edits and deletes a label on the Labels page', async () => {
    const list = page.getByRole('list', { name: 'Labels' });
    await page.getByRole('button', { name: 'New label' }).click();
    const dialog = page.getByRole('dialog', { name: 'New label' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('needs review');
    await dialog.getByRole('textbox', { name: 'Background color' }).fill('not a colour');
    await dialog.getByRole('button', { name: 'Create label' }).click();
    await dialog.getByText('must be a valid color code').waitFor();
    await dialog.getByRole('button', { name: 'Use #8fbc8f' }).click();
    await shot(page, T, 'new-label');
    await dialog.getByRole('button', { name: 'Create label' }).click();
    await list.locator('[data-label="needs review"]').waitFor();

    await list.getByRole('button', { name: 'Edit needs review' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit label' });
    await edit.getByRole('textbox', { name: 'Title' }).fill('review::needed');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await list.locator('[data-label="review::needed"]').waitFor();

    await list.getByRole('button', { name: 'Delete review::needed' }).click();
    await page.getByRole('dialog', { name: 'Delete label: review::needed?' }).getByRole('button', { name: 'Delete label' }).click();
    await list.locator('[data-label="review::needed"]').waitFor({ state: 'detached' });
    expect(await list.getByRole('listitem').count()).toBe(4);
  });

  it('picks labels in the sidebar, one value per scope, and notes each change', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await labelsBlock().getByText('None').waitFor();

    await labelsBlock().getByRole('button', { name: 'Edit labels' }).click();
    await shot(page, T, 'labels-picker-open');
    const search = page.getByLabel('Search labels');
    await search.waitFor();
    await search.fill('prio');
    await page.getByRole('option', { name: /priority::high/ }).click();
    await search.fill('');
    await page.getByRole('option', { name: /^bug/ }).click();
    await shot(page, T, 'labels-picker');
    await page.keyboard.press('Escape');
    await labelsBlock().locator('[data-label="priority::high"]').waitFor();
    await labelsBlock().locator('[data-label="bug"]').waitFor();

    // another value of the same scope replaces the first
    await labelsBlock().getByRole('button', { name: 'Edit labels' }).click();
    await page.getByLabel('Search labels').fill('low');
    await page.getByRole('option', { name: /priority::low/ }).click();
    await page.keyboard.press('Escape');
    await labelsBlock().locator('[data-label="priority::low"]').waitFor();
    await labelsBlock().locator('[data-label="priority::high"]').waitFor({ state: 'detached' });

    await milestoneBlock().getByRole('button', { name: 'Edit milestone' }).click();
    await page.getByRole('option', { name: /v1\.0/ }).click();
    await milestoneBlock().getByText('v1.0').waitFor();

    // the Activity section shows the notes the changes left, without a reload
    const activity = page.locator('main');
    await activity.getByText('changed milestone to').waitFor();
    await activity.locator('.gl-label-text', { hasText: 'bug' }).first().waitFor();
    // a note shows its source text until its Markdown arrives: wait for the rendered reference
    await activity.getByRole('link', { name: '%v1.0' }).first().waitFor();
    await shot(page, T, 'merge-request', { fullPage: true });
  });

  it('filters the merge request list by label and milestone', async () => {
    await rest('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Unlabelled work' }).catch(() => undefined);
    await page.goto(`/${project.path_with_namespace}/-/merge_requests`);
    await page.getByRole('link', { name: 'Plan the release' }).waitFor();
    await page.getByRole('button', { name: 'Label: any' }).click();
    await page.getByRole('option', { name: /priority::low/ }).click();
    await page.waitForURL((url) => url.searchParams.get('labels') === 'priority::low');
    await page.getByRole('link', { name: 'Plan the release' }).waitFor();
    await page.getByRole('button', { name: 'Milestone: any' }).click();
    await page.getByRole('option', { name: /^None/ }).click();
    await page.getByText('No results found').waitFor();
    await page.getByRole('button', { name: 'Milestone: None' }).click();
    await page.getByRole('option', { name: /v1\.0/ }).click();
    await page.getByRole('link', { name: 'Plan the release' }).waitFor();
    // the state tabs count with the same filters
    await page.getByRole('navigation', { name: 'Merge request state' }).getByRole('link', { name: /^Open/ }).filter({ hasText: /1/ }).waitFor();
    await shot(page, T, 'list-filtered');
  });

  it('closes and reopens a milestone on the Milestones page', async () => {
    await page.goto(`/${project.path_with_namespace}/-/milestones`);
    const list = page.getByRole('list', { name: 'Milestones' });
    await list.getByText('v1.0', { exact: true }).waitFor();
    await shot(page, T, 'milestones-page');
    await list.getByRole('button', { name: 'Close milestone' }).click();
    await page.getByText('No closed milestones').or(page.getByText('Use milestones to track')).waitFor();
    await page.getByRole('link', { name: 'Closed' }).click();
    await list.getByRole('button', { name: 'Reopen milestone' }).click();
    await page.getByText('No closed milestones').waitFor();
    const milestones = await rest<Array<{ state: string }>>('GET', `/projects/${project.id}/milestones`);
    expect(milestones.map((milestone) => milestone.state)).toEqual(['active']);
  });
});
