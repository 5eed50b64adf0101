import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { shot } from './support/flows.js';
import { browserSession, commitFile } from './support/session.js';

/**
 * Group labels and milestones, label subscriptions, the new merge request form's Labels and
 * Milestone pickers, and the project's Merge requests count, against a real server: a group
 * with a project in it, its pages reached from the group page's navigation, the project's
 * inherited labels linking to them.
 */
const T = 'labels-groups';

describe('group labels and milestones, subscriptions, the new merge request form', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let group: { id: number; full_path: string };
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let guest: TestUser;

  beforeAll(async () => {
    group = await rest('POST', '/groups', { name: 'Planning', path: 'planning', visibility: 'private' });
    project = await rest('POST', '/projects', { name: 'roadmap', path: 'roadmap', namespace_id: group.id, visibility: 'private' });
    const dir = join(session.git.dir, 'roadmap');
    mkdirSync(dir, { recursive: true });
    await session.git.git(['init', '--initial-branch=main'], { cwd: dir });
    await commitFile(session.git, dir, 'README.md', '# roadmap\n', 'Start');
    await session.git.git(['remote', 'add', 'origin', session.git.repoUrl(project.path_with_namespace)], { cwd: dir });
    await session.git.git(['push', '--set-upstream', 'origin', 'main'], { cwd: dir });
    await session.git.git(['switch', '--create', 'feature'], { cwd: dir });
    await commitFile(session.git, dir, 'plan.txt', 'plan\n', 'Add the plan');
    await session.git.git(['push', '--set-upstream', 'origin', 'feature'], { cwd: dir });
    await rest('POST', `/projects/${project.id}/labels`, { name: 'bug', color: '#d9534f', description: 'Something is broken' });
    await rest('POST', `/projects/${project.id}/labels`, { name: 'local idea', color: '#8fbc8f' });
    await rest('POST', `/projects/${project.id}/milestones`, { title: 'Sprint 1', due_date: '2999-03-01' });
    developer = await session.server.createUser({ username: 'dev', name: 'Dana Developer' });
    guest = await session.server.createUser({ username: 'gus', name: 'Gus Guest' });
    await rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    page = await session.signIn();
  });

  it('reaches the group’s Labels page from the group page: empty state, new, search, edit, delete', async () => {
    await page.goto(`/${group.full_path}`);
    await page.getByRole('link', { name: 'Labels' }).click();
    await page.waitForURL((url) => url.pathname === `/groups/${group.full_path}/-/labels`);
    await page.getByText('Use labels to divide up your merge requests').waitFor();
    await shot(page, T, 'group-labels-empty');

    for (const [name, color] of [
      ['area::web', '#0000ff'],
      ['area::api', '#009966'],
    ]) {
      await page.getByRole('button', { name: 'New label' }).click();
      const dialog = page.getByRole('dialog', { name: 'New label' });
      await dialog.getByRole('textbox', { name: 'Title' }).fill(name!);
      await dialog.getByRole('textbox', { name: 'Background color' }).fill(color!);
      await dialog.getByRole('button', { name: 'Create label' }).click();
      await page.getByRole('list', { name: 'Labels' }).locator(`[data-label="${name}"]`).waitFor();
    }
    const list = page.getByRole('list', { name: 'Labels' });
    await page.getByRole('textbox', { name: 'Search labels' }).fill('web');
    await list.locator('[data-label="area::api"]').waitFor({ state: 'detached' });
    expect(await list.getByRole('listitem').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Search labels' }).fill('nothing like it');
    await page.getByText('No labels with such name or description').waitFor();
    await page.getByRole('textbox', { name: 'Search labels' }).fill('');
    await list.locator('[data-label="area::api"]').waitFor();

    await list.getByRole('button', { name: 'Edit area::api' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit label' });
    await edit.getByRole('textbox', { name: 'Description' }).fill('The REST and GraphQL APIs');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await list.getByText('The REST and GraphQL APIs').waitFor();
    await shot(page, T, 'group-labels');

    await list.getByRole('button', { name: 'Delete area::api' }).click();
    await page.getByRole('dialog', { name: 'Delete label: area::api?' }).getByRole('button', { name: 'Delete label' }).click();
    await list.locator('[data-label="area::api"]').waitFor({ state: 'detached' });
    expect((await rest<Array<{ name: string }>>('GET', `/groups/${group.id}/labels`)).map((label) => label.name)).toEqual(['area::web']);
  });

  it('links a project’s inherited label to its group’s page, and promotes a project label to the group', async () => {
    await page.goto(`/${project.path_with_namespace}/-/labels`);
    const list = page.getByRole('list', { name: 'Labels' });
    await list.locator('[data-label="area::web"]').waitFor();
    const row = list.getByRole('listitem').filter({ has: page.locator('[data-label="local idea"]') });
    await row.getByRole('button', { name: 'Promote to group label' }).click();
    const dialog = page.getByRole('dialog', { name: 'Promote label local idea to Group Label?' });
    // the dialog fades in: the screenshot waits until it is fully opaque
    const opacity = () =>
      dialog.evaluate((element) => {
        let value = 1;
        for (let node: Element | null = element; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
        return value;
      });
    await expect.poll(opacity).toBe(1);
    await shot(page, T, 'promote-label');
    await dialog.getByRole('button', { name: 'Promote' }).click();
    await list
      .getByRole('listitem')
      .filter({ has: page.locator('[data-label="local idea"]') })
      .getByRole('link', { name: 'Group label' })
      .waitFor();
    expect((await rest<Array<{ name: string }>>('GET', `/groups/${group.id}/labels`)).map((label) => label.name)).toEqual(['area::web', 'local idea']);

    await list.getByRole('listitem').filter({ has: page.locator('[data-label="area::web"]') }).getByRole('link', { name: 'Group label' }).click();
    await page.waitForURL((url) => url.pathname === `/groups/${group.full_path}/-/labels`);
    await page.getByRole('list', { name: 'Labels' }).locator('[data-label="local idea"]').waitFor();
  });

  it('subscribes to a label and unsubscribes again from the Labels page', async () => {
    await page.goto(`/${project.path_with_namespace}/-/labels`);
    const list = page.getByRole('list', { name: 'Labels' });
    await list.getByRole('button', { name: 'Subscribe to bug' }).click();
    await list.getByRole('button', { name: 'Unsubscribe from bug' }).waitFor();
    expect((await rest<{ subscribed: boolean }>('GET', `/projects/${project.id}/labels/bug`)).subscribed).toBe(true);
    await shot(page, T, 'subscribed');
    await list.getByRole('button', { name: 'Unsubscribe from bug' }).click();
    await list.getByRole('button', { name: 'Subscribe to bug' }).waitFor();
    expect((await rest<{ subscribed: boolean }>('GET', `/projects/${project.id}/labels/bug`)).subscribed).toBe(false);
  });

  it('manages the group’s milestones from the group page, and the project lists them as group milestones', async () => {
    await page.goto(`/${group.full_path}`);
    await page.getByRole('link', { name: 'Milestones' }).click();
    await page.waitForURL((url) => url.pathname === `/groups/${group.full_path}/-/milestones`);
    await page.getByText('Use milestones to track merge requests over a fixed period of time').waitFor();
    await page.getByRole('button', { name: 'New milestone' }).click();
    const dialog = page.getByRole('dialog', { name: 'New milestone' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Q3 release');
    await dialog.getByRole('button', { name: 'Create milestone' }).click();
    const list = page.getByRole('list', { name: 'Milestones' });
    await list.getByText('Q3 release', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Search milestones' }).fill('nope');
    await page.getByText('No milestones match your search').waitFor();
    await page.getByRole('textbox', { name: 'Search milestones' }).fill('Q3');
    await list.getByText('Q3 release', { exact: true }).waitFor();
    await shot(page, T, 'group-milestones');

    await page.goto(`/${project.path_with_namespace}/-/milestones`);
    const projectList = page.getByRole('list', { name: 'Milestones' });
    const inherited = projectList.getByRole('listitem').filter({ hasText: 'Q3 release' });
    await inherited.getByRole('link', { name: 'Group milestone' }).click();
    await page.waitForURL((url) => url.pathname === `/groups/${group.full_path}/-/milestones`);
  });

  it('creates a merge request with labels and a milestone from the new merge request form, with the system notes', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/new?merge_request[source_branch]=feature&merge_request[target_branch]=main`);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Plan with labels');
    const labels = page.getByRole('group', { name: 'Labels' });
    await labels.getByRole('button', { name: 'Select labels' }).click();
    await page.getByLabel('Search labels').fill('bug');
    await page.getByRole('option', { name: /^bug/ }).click();
    await page.getByLabel('Search labels').fill('web');
    await page.getByRole('option', { name: /area::web/ }).click();
    await page.keyboard.press('Escape');
    await labels.locator('[data-label="bug"]').waitFor();
    await labels.locator('[data-label="area::web"]').waitFor();
    const milestone = page.getByRole('group', { name: 'Milestone' });
    await milestone.getByRole('button', { name: 'Select milestone' }).click();
    await page.getByRole('option', { name: /Sprint 1/ }).click();
    await milestone.getByText('Sprint 1').waitFor();
    await shot(page, T, 'new-merge-request-form', { fullPage: true });
    await page.getByRole('button', { name: 'Create merge request' }).click();
    await page.waitForURL((url) => /\/-\/merge_requests\/\d+$/.test(url.pathname));
    const iid = Number(new URL(page.url()).pathname.split('/').pop());

    const created = await rest<{ labels: string[]; milestone: { title: string } | null }>('GET', `/projects/${project.id}/merge_requests/${iid}`);
    expect(created.labels).toEqual(['area::web', 'bug']);
    expect(created.milestone?.title).toBe('Sprint 1');
    const notes = (await rest<Array<{ body: string; system: boolean }>>('GET', `/projects/${project.id}/merge_requests/${iid}/notes`)).filter((note) => note.system).map((note) => note.body);
    expect(notes.some((body) => /^added ~\d+ ~\d+ labels$/.test(body))).toBe(true);
    expect(notes.some((body) => /^changed milestone to %\d+$/.test(body))).toBe(true);
    const sidebar = page.getByRole('complementary', { name: 'Merge request details' });
    await sidebar.getByRole('region', { name: 'Labels' }).locator('[data-label="bug"]').waitFor();
    await page.locator('main').getByText('changed milestone to').waitFor();
  });

  it('counts open merge requests on the project’s tab: another user’s, one from a fork, after a reload, for a Guest of a public project', async () => {
    const countOn = async (viewer: Page) => {
      const tab = viewer.getByRole('navigation').getByRole('link', { name: /^Merge requests/ });
      await tab.waitFor();
      return tab;
    };
    // the developer's own merge request (feature already has one: theirs is from another branch)
    await rest('POST', `/projects/${project.id}/repository/branches`, { branch: 'dana', ref: 'feature' }, developer.token);
    await rest('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'dana', target_branch: 'main', title: 'Dana’s change' }, developer.token);
    // one from the developer's fork
    const fork = await rest<{ id: number }>('POST', `/projects/${project.id}/fork`, {}, developer.token);
    await rest('POST', `/projects/${fork.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', target_project_id: project.id, title: 'From the fork' }, developer.token);
    const open = (await rest<unknown[]>('GET', `/projects/${project.id}/merge_requests?state=opened&per_page=100`)).length;
    expect(open).toBe(3);

    await page.goto(`/${project.path_with_namespace}`);
    await (await countOn(page)).filter({ hasText: String(open) }).waitFor();
    await page.reload();
    await (await countOn(page)).filter({ hasText: String(open) }).waitFor();
    await shot(page, T, 'merge-requests-count');

    await rest('PUT', `/groups/${group.id}`, { visibility: 'public' });
    await rest('PUT', `/projects/${project.id}`, { visibility: 'public' });
    await rest('POST', `/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 });
    const asGuest = await session.signIn({ username: guest.username, password: guest.password });
    try {
      await asGuest.goto(`/${project.path_with_namespace}`);
      await (await countOn(asGuest)).filter({ hasText: String(open) }).waitFor();
    } finally {
      await asGuest.context().close();
    }
  });
});
