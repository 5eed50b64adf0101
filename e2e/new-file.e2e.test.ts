import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The New file form against a real server: from the file browser into a directory, a name
 * with directories of its own, a commit to the branch or to a new branch, GitLab's parameters
 * filling the form, and a Reporter who is offered none of it.
 */
const session = browserSession('new-file');

describe('new file', () => {
  let project: { id: number; path_with_namespace: string };
  let page: Page;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Docs site', path: 'docs-site', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/docs%2Findex.md`, { branch: 'main', content: '# Docs\n', commit_message: 'Add docs' });
    page = await session.signIn();
  });

  it('adds a file in the directory shown, with directories in its name, and lands on it', async () => {
    await page.goto(`/${project.path_with_namespace}/-/tree/main/docs`);
    await page.getByRole('link', { name: 'New file' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/new/main/docs`);
    await page.getByRole('heading', { name: 'New file' }).waitFor();
    // an empty name is refused in the form
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.getByText(/^Enter a file name/).waitFor();
    await page.getByRole('textbox', { name: 'File name' }).fill('api/users.md');
    await page.getByRole('textbox', { name: 'Content' }).fill('# Users API\n');
    expect(await page.getByRole('textbox', { name: 'Commit message' }).inputValue()).toBe('Add new file');
    await session.snap('form', page);
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/blob/main/docs/api/users.md`);
    const file = await session.rest<{ content: string }>('GET', `/projects/${project.id}/repository/files/docs%2Fapi%2Fusers.md?ref=main`);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('# Users API\n');
  });

  it('starts a new branch when another is named, and fills the form from GitLab’s parameters', async () => {
    await page.goto(`/${project.path_with_namespace}/-/new/main?file_name=.gitlab-ci.yml&commit_message=Add%20CI`);
    expect(await page.getByRole('textbox', { name: 'File name' }).inputValue()).toBe('.gitlab-ci.yml');
    expect(await page.getByRole('textbox', { name: 'Commit message' }).inputValue()).toBe('Add CI');
    await page.getByRole('textbox', { name: 'Content' }).fill('test:\n  script: [true]\n');
    await page.getByRole('textbox', { name: 'Target branch' }).fill('add-ci');
    await page.getByText('A new branch add-ci is started from main.').waitFor();
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/blob/add-ci/.gitlab-ci.yml`);
    const branch = await session.rest<{ commit: { message: string } }>('GET', `/projects/${project.id}/repository/branches/add-ci`);
    expect(branch.commit.message.trim()).toBe('Add CI');
  });

  it('shows the server’s refusal and changes nothing when the file exists', async () => {
    await page.goto(`/${project.path_with_namespace}/-/new/main/docs?file_name=index.md`);
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.getByRole('alert').getByText(/already exists/).waitFor();
    const file = await session.rest<{ content: string }>('GET', `/projects/${project.id}/repository/files/docs%2Findex.md?ref=main`);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('# Docs\n');
  });

  it('offers a Reporter no New file, and the form says they cannot push', async () => {
    const reporter = await session.server.createUser({ username: 'rhea', name: 'Rhea Reporter' });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    const reporterPage = await session.signIn(reporter);
    await reporterPage.goto(`/${project.path_with_namespace}/-/tree/main`);
    await reporterPage.getByRole('link', { name: 'README.md' }).first().waitFor();
    expect(await reporterPage.getByRole('link', { name: 'New file', exact: true }).count()).toBe(0);
    await reporterPage.goto(`/${project.path_with_namespace}/-/new/main`);
    await reporterPage.getByText('You are not allowed to push to main, so you cannot add files to it.').waitFor();
  });
});
