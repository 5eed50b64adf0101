import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';
import type { TestUser } from '../server/src/test-support/server.js';

/**
 * The pipeline page's Manual variables tab against a real server: a pipeline run through the API
 * with `variables` lists their keys with the values masked; a Maintainer reveals and hides the
 * values, a Developer who did not run the pipeline gets no 'Reveal values'; a pipeline run without
 * variables shows GitLab's empty state.
 */
const session = browserSession('pipeline-manual-variables');

describe('the pipeline Manual variables tab', () => {
  let project: { id: number; path_with_namespace: string };
  let maintainer: TestUser;
  let developer: TestUser;
  let withVariables: { id: number };
  let withoutVariables: { id: number };

  beforeAll(async () => {
    [maintainer, developer] = await Promise.all([
      session.server.createUser({ username: 'mara', name: 'Mara Maintainer' }),
      session.server.createUser({ username: 'dev', name: 'Dev Developer' }),
    ]);
    project = await session.rest('POST', '/projects', { name: 'Variables', path: 'variables', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: 'build:\n  script: make\n', commit_message: 'Add CI' });
    withVariables = await session.rest('POST', `/projects/${project.id}/pipeline`, {
      ref: 'main',
      variables: [
        { key: 'DEPLOY_ENV', value: 'staging' },
        { key: 'RELEASE_NOTES', value: 'notes.md', variable_type: 'file' },
      ],
    });
    withoutVariables = await session.rest('POST', `/projects/${project.id}/pipeline`, { ref: 'main' });
  });

  const tabUrl = (pipelineId: number) => `/${project.path_with_namespace}/-/pipelines/${pipelineId}/manual_variables`;
  const values = (page: Page) => page.getByRole('table', { name: 'Manual variables' }).getByRole('row').evaluateAll((rows) => rows.slice(1).map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent)));

  it('lets a Maintainer open the tab from the pipeline page, reveal the values and hide them again', async () => {
    const page = await session.signIn(maintainer);
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${withVariables.id}`);
    // the tab's counter is the number of variables (GitLab's manual_variables_count)
    const tab = page.getByRole('navigation', { name: 'Pipeline tabs' }).getByRole('link', { name: 'Manual variables (2)' });
    await tab.waitFor();
    await tab.click();
    await page.waitForURL((url) => url.pathname === tabUrl(withVariables.id));
    await page.getByRole('table', { name: 'Manual variables' }).waitFor();
    expect(await values(page)).toEqual([
      ['DEPLOY_ENV', '****'],
      ['RELEASE_NOTES', '****'],
    ]);
    await session.snap('masked', page);
    await page.getByRole('button', { name: 'Reveal values' }).click();
    await page.getByRole('cell', { name: 'staging' }).waitFor();
    expect(await values(page)).toEqual([
      ['DEPLOY_ENV', 'staging'],
      ['RELEASE_NOTES', 'notes.md'],
    ]);
    await session.snap('revealed', page);
    await page.getByRole('button', { name: 'Hide values' }).click();
    await page.getByRole('button', { name: 'Reveal values' }).waitFor();
    expect((await values(page))[0]).toEqual(['DEPLOY_ENV', '****']);
    await page.close();
  });

  it('shows a Developer who did not run the pipeline the keys only, without Reveal values', async () => {
    const page = await session.signIn(developer);
    await page.goto(tabUrl(withVariables.id));
    await page.getByRole('table', { name: 'Manual variables' }).waitFor();
    expect(await values(page)).toEqual([
      ['DEPLOY_ENV', '****'],
      ['RELEASE_NOTES', '****'],
    ]);
    expect(await page.getByRole('button', { name: 'Reveal values' }).count()).toBe(0);
    await session.snap('developer', page);
    await page.close();
  });

  it('shows GitLab’s empty state for a pipeline run without variables', async () => {
    const page = await session.signIn(maintainer);
    await page.goto(tabUrl(withoutVariables.id));
    await page.getByText('There are no manually-specified variables for this pipeline').waitFor();
    await session.snap('empty', page);
    await page.close();
  });
});
