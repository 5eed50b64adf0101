import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../server/src/test-support/server.js';
import { browserSession } from './support/session.js';

/**
 * Project features, push rules and old paths in the browser: a Maintainer saves push rules in
 * Settings → Repository (a bad pattern gets the server's RE2 message), turns merge requests off
 * in 'Visibility, project features, permissions' (the tab goes; a merge request feature above
 * the repository's gets GitLab's message), and an old project URL lands on the new one.
 */
const session = browserSession('project-features');

describe('project features, push rules and old paths', () => {
  let maintainer: TestUser;
  let project: { id: number; path_with_namespace: string };
  let page: Page;

  beforeAll(async () => {
    maintainer = await session.server.createUser({ username: 'mara', name: 'Mara Maintainer' });
    project = await session.rest('POST', '/projects', { name: 'Rules Lab', path: 'rules-lab', visibility: 'private', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    page = await session.signIn(maintainer);
  });

  const form = (name: string) => page.getByRole('form', { name });
  /** A whole form in one picture: a viewport taller than the form keeps the sticky header out of it. */
  async function snapForm(state: string, name: string) {
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 1800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.snap(state, form(name));
    await page.setViewportSize(viewport);
  }

  it('the Maintainer saves push rules; an invalid pattern gets the server’s message and saves nothing', async () => {
    await page.goto(`/${project.path_with_namespace}/-/settings/repository`);
    await page.getByRole('button', { name: 'Expand Push rules' }).click();
    const rules = form('Push rules');
    await rules.getByLabel('Branch name').fill('(feature');
    await rules.getByRole('button', { name: 'Save push rules' }).click();
    await rules.getByText(/Branch name is not valid RE2 syntax/).waitFor();
    expect(await session.rest('GET', `/projects/${project.id}/push_rule`)).toBeNull();

    await rules.getByLabel('Branch name').fill('^(main|feature/.+)$');
    await rules.getByLabel('Require expression in commit messages').fill('^JIRA-\\d+');
    await rules.getByLabel('Do not allow users to remove Git tags with git push').check();
    await rules.getByLabel('Maximum file size (MB)').fill('5');
    await rules.getByRole('button', { name: 'Save push rules' }).click();
    await rules.getByRole('status').filter({ hasText: 'Push rules updated' }).waitFor();
    await snapForm('push-rules-saved', 'Push rules');
    expect(await session.rest('GET', `/projects/${project.id}/push_rule`)).toMatchObject({
      branch_name_regex: '^(main|feature/.+)$',
      commit_message_regex: '^JIRA-\\d+',
      deny_delete_tag: true,
      max_file_size: 5,
    });

    // a second save edits the same rule (PUT)
    await rules.getByLabel('Check whether the commit author is a GitLab user').check();
    await rules.getByRole('button', { name: 'Save push rules' }).click();
    await expect.poll(async () => (await session.rest('GET', `/projects/${project.id}/push_rule`)).member_check).toBe(true);
  });

  it('the Maintainer turns merge requests off: the tab goes; merge requests above the repository get GitLab’s message', async () => {
    await page.goto(`/${project.path_with_namespace}/edit`);
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Merge requests' }).waitFor();
    await page.getByRole('button', { name: 'Expand Visibility, project features, permissions' }).click();
    const features = form('Visibility, project features, permissions');

    await features.getByLabel('Repository').selectOption('private');
    await features.getByRole('button', { name: 'Save changes' }).click();
    await features.getByText('Merge requests cannot have higher visibility level than repository access level').first().waitFor();
    await snapForm('features-refused', 'Visibility, project features, permissions');
    expect((await session.rest('GET', `/projects/${project.id}`)).repository_access_level).toBe('enabled');

    await features.getByLabel('Repository').selectOption('enabled');
    await features.getByLabel('Merge requests').selectOption('disabled');
    await features.getByRole('button', { name: 'Save changes' }).click();
    await features.getByRole('status').filter({ hasText: "Project 'Rules Lab' was successfully updated." }).waitFor();
    await expect.poll(() => nav.getByRole('link', { name: 'Merge requests' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Code' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.snap('features-saved', page);
    expect(await session.rest('GET', `/projects/${project.id}`)).toMatchObject({ merge_requests_access_level: 'disabled', merge_requests_enabled: false });
  });

  it('an old project URL redirects to the project’s new path', async () => {
    const oldPath = project.path_with_namespace;
    const renamed = await session.rest('PUT', `/projects/${project.id}`, { path: 'rules-lab-moved' });
    await page.goto(`/${oldPath}/-/settings/repository`);
    await page.waitForURL((url) => url.pathname === `/${renamed.path_with_namespace}/-/settings/repository`);
    await page.getByRole('button', { name: 'Expand Push rules' }).waitFor();
  });
});
