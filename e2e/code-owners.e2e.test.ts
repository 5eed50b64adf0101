import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The blob page shows a file's code owners from the CODEOWNERS file at the shown ref ("Code
 * owners: @root, @group" as links), and on the CODEOWNERS file itself its syntax errors by line.
 */
const session = browserSession('code-owners');

describe('code owners on the blob page', () => {
  let page: Page;
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    await session.rest('POST', '/groups', { name: 'Platform Team', path: 'platform-team' });
    project = await session.rest('POST', '/projects', { name: 'Owned Lab', path: 'owned-lab', visibility: 'private' });
    await session.rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'CODEOWNERS and owned files',
      actions: [
        { action: 'create', file_path: 'CODEOWNERS', content: '[Backend]\napp/ @root @platform-team\n[Broken][0]\nlib/ not-an-owner\n' },
        { action: 'create', file_path: 'app/main.rb', content: 'puts "hello"\n' },
        { action: 'create', file_path: 'notes.txt', content: 'nobody owns this\n' },
      ],
    });
    page = await session.signIn();
  });

  it('lists the owners of an owned file as links, and none for an unowned one', async () => {
    await page.goto(`/${project.path_with_namespace}/-/blob/main/app/main.rb`);
    const owners = page.getByRole('region', { name: 'Code owners' });
    await owners.waitFor();
    expect((await owners.textContent())?.replace(/\s+/g, ' ')).toContain('Code owners: @root, @platform-team');
    expect(await owners.getByRole('link', { name: '@root' }).getAttribute('href')).toMatch(/\/root$/);
    expect(await owners.getByRole('link', { name: '@platform-team' }).getAttribute('href')).toMatch(/\/groups\/platform-team$/);
    await page.getByText('puts "hello"').first().waitFor();
    await session.snap('owned-file', page);

    await page.goto(`/${project.path_with_namespace}/-/blob/main/notes.txt`);
    await page.getByText('nobody owns this').first().waitFor();
    expect(await page.getByRole('region', { name: 'Code owners' }).count()).toBe(0);
  });

  it('shows the CODEOWNERS file’s syntax errors with their lines', async () => {
    await page.goto(`/${project.path_with_namespace}/-/blob/main/CODEOWNERS`);
    const syntax = page.getByRole('region', { name: 'CODEOWNERS syntax' });
    await syntax.waitFor();
    expect(await syntax.innerText()).toContain('Contains 2 syntax errors.');
    await syntax.getByText('Less than 1 required approvals on line 3').waitFor();
    await syntax.getByText('Malformed owners on line 4').waitFor();
    await session.snap('codeowners-errors', page);
  });
});
