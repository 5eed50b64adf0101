import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The pipelines pages against a real server: a commit of .gitlab-ci.yml creates a pipeline (no
 * runner runs here, so jobs move through the engine's service, as a runner's reports would), the
 * list, the graph with its job actions and the manual job's `manual_confirmation` modal, transitions showing
 * without a reload, the Failures tab, the jobs list, the job page's empty log, the empty list, and
 * Run pipeline with GitLab's 400 message.
 */
const session = browserSession('pipelines');

const CONFIG = `stages: [build, test, deploy]
compile:
  stage: build
  script: make
  allow_failure: true
lint:
  stage: build
  script: make lint
unit:
  stage: test
  script: make test
deploy:
  stage: deploy
  script: make deploy
  when: manual
  manual_confirmation: Ship it to production?
`;

interface JobRow {
  id: number;
  name: string;
  status: string;
}

/** Waits for `read` to give a value (background work: the pipeline is created by the queue). */
async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('pipelines pages', () => {
  let project: { id: number; path_with_namespace: string };
  let empty: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let page: Page;
  const jobs = async () => session.rest<JobRow[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
  const jobId = async (name: string) => (await jobs()).find((job) => job.name === name)!.id;
  const engine = () => session.server.app.services.pipelineEngine;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Pipes', path: 'pipes', initialize_with_readme: true });
    empty = await session.rest('POST', '/projects', { name: 'No CI', path: 'no-ci', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    pipelineId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    page = await session.signIn();
  });

  it('lists the pipeline under Pipelines with its status, ref, sha, source, triggerer and stages', async () => {
    await page.goto(`/${project.path_with_namespace}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Pipelines' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/pipelines`);
    const table = page.getByRole('table', { name: 'Pipelines' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `Pipeline #${pipelineId}` }) });
    await row.getByText('pending').waitFor();
    await row.getByText('push').waitFor();
    await row.getByRole('link', { name: 'main' }).waitFor();
    await row.getByText('Administrator').waitFor();
    await row.getByRole('button', { name: 'Stage build: pending' }).waitFor();
    await row.getByRole('button', { name: 'Stage deploy: created' }).waitFor();
    // the document title is set once the page has rendered, after the URL changed
    await page.waitForFunction((word) => document.title.includes(word), 'Pipelines');
    expect(await page.title()).toContain('Pipelines');
    await session.snap('list', page);

    // The mini graph: a stage's dropdown lists its jobs with their actions, and closes on Escape.
    await row.getByRole('button', { name: 'Stage build: pending' }).click();
    const stageJobs = page.getByRole('list', { name: 'Jobs of stage build' });
    await stageJobs.getByRole('link', { name: 'lint' }).waitFor();
    expect(await stageJobs.getByRole('link').allTextContents()).toEqual(['compile', 'lint']);
    await session.snap('list-stage-dropdown', page);
    await page.keyboard.press('Escape');
    await stageJobs.waitFor({ state: 'detached' });

    // Filters go to the URL and to the API.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('success');
    await page.getByRole('heading', { name: 'No results found' }).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('success');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('');
    await table.waitFor();
  });

  it('shows the graph, and a transition appears without a reload', async () => {
    await page.getByRole('link', { name: `Pipeline #${pipelineId}` }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    for (const stage of ['build', 'test', 'deploy']) await graph.getByRole('heading', { name: stage }).waitFor();
    await graph.getByRole('button', { name: 'Cancel this job: compile' }).waitFor();
    await session.snap('graph-pending', page);

    // The runner's report, through the engine: compile fails (allowed), lint passes, then unit.
    await engine().transitionJob(await jobId('compile'), 'drop', { failure_reason: 'script_failure' });
    await engine().transitionJob(await jobId('lint'), 'success');
    await graph.getByRole('button', { name: 'Run this job again: compile' }).waitFor();
    await graph.locator('[data-job="compile"]').getByRole('img', { name: 'Status: failed (allowed to fail) - (script failure)' }).waitFor();
    await engine().transitionJob(await jobId('unit'), 'success');
    await graph.getByRole('button', { name: 'Run job: deploy' }).waitFor();
    // The optional manual job does not hold the pipeline; the allowed failure makes it GitLab's 'warning'.
    const pipeline = await session.rest<{ detailed_status: { text: string } }>('GET', `/projects/${project.id}/pipelines/${pipelineId}`);
    expect(pipeline.detailed_status.text).toBe('warning');
    await page.locator('[data-status="success-with-warnings"]').getByText('warning').waitFor();
    await session.snap('graph-manual', page);
  });

  it('asks before running the manual job with its manual_confirmation text, then runs it', async () => {
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    await graph.getByRole('button', { name: 'Run job: deploy' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog.getByText('Are you sure you want to run deploy?').waitFor();
    await dialog.getByText('Custom confirmation message: Ship it to production?').waitFor();
    await dialog.getByText('Do you want to continue?').waitFor();
    await session.snap('manual-confirm', page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await jobs()).find((job) => job.name === 'deploy')!.status).toBe('manual');

    await graph.getByRole('button', { name: 'Run job: deploy' }).click();
    await dialog.getByRole('button', { name: 'Yes, run deploy' }).click();
    await graph.getByRole('button', { name: 'Cancel this job: deploy' }).waitFor();
    expect((await jobs()).find((job) => job.name === 'deploy')!.status).toBe('pending');
  });

  it('lists the failed job in the Failures tab with its stage and failure message, and the Jobs tab lists all', async () => {
    await page.getByRole('navigation', { name: 'Pipeline tabs' }).getByRole('link', { name: /Failures/ }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/pipelines/${pipelineId}/failures`));
    const table = page.getByRole('table', { name: 'Failed jobs' });
    // the table renders after the URL changes: wait for its last column before reading them all
    await table.getByRole('columnheader', { name: 'Actions' }).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Stage', 'Failure', 'Actions']);
    const row = table.getByRole('row').filter({ hasText: 'compile' });
    await row.getByText('build').waitFor();
    await row.getByText('script failure').waitFor();
    await row.getByRole('button', { name: 'Run this job again: compile' }).waitFor();
    await session.snap('failures', page);

    await page.getByRole('navigation', { name: 'Pipeline tabs' }).getByRole('link', { name: /Jobs/ }).click();
    const jobsTable = page.getByRole('table', { name: 'Jobs' });
    for (const name of ['compile', 'lint', 'unit', 'deploy']) await jobsTable.getByRole('link', { name }).waitFor();
  });

  it('opens the job page: header, and the log panel’s empty state', async () => {
    await page.getByRole('table', { name: 'Jobs' }).getByRole('link', { name: 'compile' }).click();
    await page.waitForURL((url) => /\/-\/jobs\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'compile' }).waitFor();
    await page.getByText('There has been').or(page.getByText('script failure')).first().waitFor();
    await page.getByRole('button', { name: 'Run this job again: compile' }).waitFor();
    await page.getByRole('heading', { name: 'No job log' }).waitFor();
    await session.snap('job', page);
  });

  it('filters the project’s jobs by status', async () => {
    await page.goto(`/${project.path_with_namespace}/-/jobs`);
    const table = page.getByRole('table', { name: 'Jobs' });
    await table.getByRole('link', { name: 'lint' }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await table.getByRole('link', { name: 'compile' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('table[aria-label="Jobs"]')?.textContent?.includes('lint'));
    await session.snap('jobs', page);
  });

  it('shows the empty list, and Run pipeline shows GitLab’s 400 message', async () => {
    await page.goto(`/${empty.path_with_namespace}/-/pipelines`);
    await page.getByRole('heading', { name: 'There are currently no pipelines.' }).waitFor();
    expect(await page.getByRole('link', { name: 'Learn how to write the .gitlab-ci.yml file' }).getAttribute('href')).toBe('https://docs.gitlab.com/ee/ci/yaml/');
    await session.snap('empty', page);
    await page.getByRole('link', { name: 'Run pipeline' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/-/pipelines/new'));
    const form = page.getByRole('form', { name: 'Run pipeline' });
    await form.getByLabel('Input variable key 1').fill('DEPLOY');
    await form.getByLabel('Input variable value 1').fill('yes');
    await form.getByRole('button', { name: 'Run pipeline' }).click();
    await form.getByRole('alert').getByText('Missing CI config file').waitFor();
    await session.snap('new-error', page);
  });

  it('a Reporter reads the pages but gets no Run pipeline, job actions or Delete', async () => {
    const reporter = await session.server.createUser({ username: 'rory', name: 'Rory Reporter' });
    await session.rest('POST', `/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    const reporterPage = await session.signIn(reporter);
    await reporterPage.goto(`/${project.path_with_namespace}/-/pipelines`);
    await reporterPage.getByRole('link', { name: `Pipeline #${pipelineId}` }).waitFor();
    expect(await reporterPage.getByRole('link', { name: 'Run pipeline' }).count()).toBe(0);
    await reporterPage.goto(`/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const graph = reporterPage.getByRole('region', { name: 'Pipeline graph' });
    await graph.getByRole('link', { name: 'compile' }).waitFor();
    expect(await graph.getByRole('button').count()).toBe(0);
    expect(await reporterPage.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await session.snap('reporter', reporterPage);
    await reporterPage.close();
  });

  it('runs a pipeline from the form and lands on it', async () => {
    await page.goto(`/${project.path_with_namespace}/-/pipelines/new`);
    const form = page.getByRole('form', { name: 'Run pipeline' });
    await form.getByRole('button', { name: 'Run pipeline' }).click();
    await page.waitForURL((url) => /\/-\/pipelines\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${pipelineId}`));
    await page.getByRole('region', { name: 'Pipeline graph' }).getByRole('heading', { name: 'build' }).waitFor();
    const newest = (await session.rest<{ id: number; ref: string; source: string }[]>('GET', `/projects/${project.id}/pipelines`))[0]!;
    expect(page.url()).toContain(`/-/pipelines/${newest.id}`);
    expect(newest.ref).toBe('main');
    // the web's form records GitLab's source `web` (a token's call records `api`)
    expect(newest.source).toBe('web');
    await page.getByText('Source web').waitFor();
  });
});
