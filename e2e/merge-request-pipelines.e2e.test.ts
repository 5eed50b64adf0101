import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The merge request's Pipelines tab against a real server: the merge request pipeline created when
 * the request is opened, 'Run pipeline' adding another, a refused 'Run pipeline' (a Developer on a
 * protected source branch) showing GitLab's message, and the merge request settings 'Pipelines must succeed' with 'Skipped pipelines
 * are considered successful' and 'Enable merged results pipelines' saved to the project.
 */
const session = browserSession('merge-request-pipelines');

const CONFIG = `mr-test:
  script: make test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`;

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('merge request pipelines', () => {
  let project: { id: number; path_with_namespace: string };
  let iid: number;
  let page: Page;
  const pipelines = () => session.rest<{ id: number; source: string }[]>('GET', `/projects/${project.id}/merge_requests/${iid}/pipelines`);

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'MR pipes', path: 'mr-pipes', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    await session.rest('POST', `/projects/${project.id}/repository/files/feature.txt`, { branch: 'feature', start_branch: 'main', content: 'feature\n', commit_message: 'Add the feature' });
    iid = (await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add the feature' })).iid;
    await until(async () => (await pipelines()).length > 0);
    page = await session.signIn();
  });

  it('lists the merge request pipeline under the Pipelines tab, and Run pipeline adds one', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Pipelines' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/merge_requests/${iid}/pipelines`);
    const table = page.getByRole('table', { name: 'Pipelines' });
    const [first] = await pipelines();
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `Pipeline #${first!.id}` }) });
    await row.getByText('merge_request_event').or(row.getByText('Merge request event')).first().waitFor();
    await session.snap('tab', page);

    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await until(async () => (await pipelines()).length === 2);
    const [newest] = await pipelines();
    await table.getByRole('link', { name: `Pipeline #${newest!.id}` }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
  });

  it('shows GitLab’s message when the server refuses (a Developer on a protected source branch)', async () => {
    const developer = await session.server.createUser();
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await session.rest('POST', `/projects/${project.id}/protected_branches`, { name: 'feature', push_access_level: 40, merge_access_level: 40 });
    const other = await session.signIn(developer);
    await other.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}/pipelines`);
    await other.getByRole('table', { name: 'Pipelines' }).waitFor();
    await other.getByRole('button', { name: 'Run pipeline' }).click();
    await other.getByText('You do not have permission to run a pipeline on this branch.').waitFor();
    await session.snap('refused', other);
    expect((await pipelines()).length).toBe(2);
    await other.close();
  });

  it('saves the pipeline merge settings', async () => {
    await page.goto(`/${project.path_with_namespace}/-/settings/merge_requests`);
    await page.getByRole('checkbox', { name: 'Pipelines must succeed' }).check();
    await page.getByRole('checkbox', { name: 'Skipped pipelines are considered successful' }).check();
    await page.getByRole('checkbox', { name: 'Enable merged results pipelines' }).check();
    await session.snap('settings', page);
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await until(async () => {
      const saved = await session.rest<Record<string, unknown>>('GET', `/projects/${project.id}`);
      return saved.only_allow_merge_if_pipeline_succeeds === true && saved.allow_merge_on_skipped_pipeline === true && saved.merge_pipelines_enabled === true;
    });
  });
});
