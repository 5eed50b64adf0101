import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The Environments pages against a real server: deploy jobs of a pipeline create `production`
 * and a review app in the `review` folder; jobs move through the engine's service as a runner's
 * reports would. The list with each environment's last deployment, the folder, an environment's
 * deployments, stopping (its on_stop job runs), the Stopped tab and deleting, a new environment,
 * and a Reporter who sees no actions.
 */
const session = browserSession('environments');

const CONFIG = `stages: [deploy]
deploy:
  stage: deploy
  script: make deploy
  environment:
    name: production
    url: https://prod.example.com
    on_stop: stop_production
stop_production:
  stage: deploy
  script: make stop
  when: manual
  environment:
    name: production
    action: stop
review:
  stage: deploy
  script: make review
  environment:
    name: review/$CI_COMMIT_REF_SLUG
`;

interface JobRow {
  id: number;
  name: string;
  status: string;
}

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('environments pages', () => {
  let project: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let page: Page;
  const jobs = async () => session.rest<JobRow[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs?include_retried=false`);
  const job = async (name: string) => (await jobs()).find((row) => row.name === name)!;
  const engine = () => session.server.app.services.pipelineEngine;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Shop', path: 'shop', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    pipelineId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    await until(async () => (await jobs()).length === 3);
    // the runner's reports: both deploy jobs succeed
    await engine().transitionJob((await job('deploy')).id, 'success');
    await engine().transitionJob((await job('review')).id, 'success');
    page = await session.signIn();
  });

  it('lists each environment with its last deployment, review apps in their folder', async () => {
    await page.goto(`/${project.path_with_namespace}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Environments' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/environments`);
    const table = page.getByRole('table', { name: 'Active environments' });
    const production = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'production', exact: true }) });
    await production.getByText('Success').waitFor();
    await production.getByRole('link', { name: /^deploy #\d+$/ }).waitFor();
    await production.getByText('by Administrator').waitFor();
    expect(await production.getByRole('link', { name: 'Open production' }).getAttribute('href')).toBe('https://prod.example.com');
    // the review app sits in its closed folder until it is opened
    const folder = table.getByRole('button', { name: /review/ });
    expect(await folder.getAttribute('aria-expanded')).toBe('false');
    expect(await table.getByRole('link', { name: 'main', exact: true }).count()).toBe(0);
    await folder.click();
    await table.getByRole('link', { name: 'main', exact: true }).waitFor();
    await page.waitForFunction((word) => document.title.includes(word), 'Environments');
    await session.snap('list', page);
  });

  it('shows an environment’s deployments, stops it (its on_stop job runs) and deletes it from the Stopped tab', async () => {
    await page.getByRole('link', { name: 'production', exact: true }).click();
    await page.getByRole('heading', { name: 'production' }).waitFor();
    const deployments = page.getByRole('table', { name: 'Deployments' });
    await deployments.getByRole('link', { name: /^deploy #\d+$/ }).waitFor();
    await page.waitForFunction(() => document.title.startsWith('production · Environments'));
    await session.snap('environment', page);

    await page.getByRole('button', { name: 'Stop production' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog.getByText('Stop production?').waitFor();
    await dialog.getByRole('button', { name: 'Stop environment' }).click();
    // stopping plays the on_stop job; the environment is stopped once that job succeeds
    const stopJob = await until(async () => {
      const found = await job('stop_production');
      return found.status === 'pending' ? found : null;
    });
    await engine().transitionJob(stopJob.id, 'success');
    await page.getByText('Stopped', { exact: true }).waitFor();

    await page.goto(`/${project.path_with_namespace}/-/environments?scope=stopped`);
    const stopped = page.getByRole('table', { name: 'Stopped environments' });
    await stopped.getByRole('link', { name: 'production', exact: true }).waitFor();
    await stopped.getByRole('button', { name: 'Delete production' }).click();
    await dialog.getByRole('button', { name: 'Delete environment' }).click();
    await page.getByRole('heading', { name: "You don't have any stopped environments." }).waitFor();
  });

  it('creates an environment from the form, asking for a name first', async () => {
    await page.goto(`/${project.path_with_namespace}/-/environments`);
    await page.getByRole('button', { name: 'New environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New environment' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a name for the environment.').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('staging');
    await dialog.getByRole('textbox', { name: 'External URL' }).fill('https://staging.example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'staging' }).waitFor();
    await page.getByRole('heading', { name: "You don't have any deployments right now." }).waitFor();
  });

  it('a Reporter reads the pages but gets no actions', async () => {
    const reporter = await session.server.createUser({ username: 'rita', name: 'Rita Reporter' });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    const reporterPage = await session.signIn(reporter);
    await reporterPage.goto(`/${project.path_with_namespace}/-/environments`);
    const table = reporterPage.getByRole('table', { name: 'Active environments' });
    await table.getByRole('link', { name: 'staging', exact: true }).waitFor();
    expect(await reporterPage.getByRole('button', { name: 'New environment' }).count()).toBe(0);
    expect(await table.getByRole('button', { name: /^(Stop|Re-deploy|Delete) / }).count()).toBe(0);
  });

  it('shows the environments a merge request deployed to in its widget, with the app link and stop', async () => {
    await session.rest('POST', `/projects/${project.id}/repository/files/feature.txt`, { branch: 'feature', start_branch: 'main', content: 'feature\n', commit_message: 'Add the feature' });
    const featureJobs = async () => {
      const [pipeline] = await session.rest<{ id: number; ref: string }[]>('GET', `/projects/${project.id}/pipelines?ref=feature`);
      return pipeline ? session.rest<JobRow[]>('GET', `/projects/${project.id}/pipelines/${pipeline.id}/jobs`) : [];
    };
    const review = await until(async () => (await featureJobs()).find((row) => row.name === 'review' && row.status === 'pending'));
    await engine().transitionJob(review.id, 'success');
    const mr = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Feature' });
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}`);
    const deployments = page.getByRole('region', { name: 'Deployments' });
    const row = deployments.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'review/feature', exact: true }) });
    await row.getByText('Deployed to').waitFor();
    // production's deploy job of this branch has not run: it will deploy
    await deployments.getByRole('listitem').filter({ hasText: 'Will deploy to' }).getByRole('link', { name: 'production', exact: true }).waitFor();
    await session.snap('merge-request-deployments', page);

    await row.getByRole('button', { name: 'Stop environment: review/feature' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog.getByText('Are you sure you want to stop this environment?').waitFor();
    await dialog.getByRole('button', { name: 'Stop environment' }).click();
    // GitLab's widget follows the stop's answer: the environment's page
    await page.getByRole('heading', { name: 'review/feature' }).waitFor();
    await page.getByText('Stopped', { exact: true }).waitFor();
  });
});
