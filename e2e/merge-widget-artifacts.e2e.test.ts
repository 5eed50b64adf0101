import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';
import { until } from './support/until.js';
import { zipOf } from '../server/src/test-support/zip.js';

/**
 * The merge widget's pipeline container against a real server: a job exposing its artifacts
 * (`artifacts:expose_as`) through the runner protocol, listed under the pipeline as 'View exposed
 * artifact', and each job's archive under the pipeline's 'Artifacts'; a review app whose route map (`.gitlab/route-map.yml`) turns the changed files into
 * pages under 'View app'; and a canceled pipeline, which asks 'Merge…' like a failed one.
 */
const session = browserSession('merge-widget-artifacts');

const CONFIG = `report:
  script: make report
  artifacts:
    expose_as: Coverage report
    paths: [coverage/index.html]
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
review:
  script: make deploy
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.example.com
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
`;

const ROUTE_MAP = String.raw`- source: /source\/(.+?\.html).*/
  public: '\1'
`;

describe('the merge widget’s exposed artifacts, changed pages and a canceled pipeline', () => {
  let project: { id: number; path_with_namespace: string };
  let runner: { token: string };
  let page: Page;
  const widget = () => page.getByRole('region', { name: 'Merge status' });
  const container = () => widget().getByRole('group', { name: 'Pipeline', exact: true });
  const jobsOf = async (ref: string) => {
    const [pipeline] = await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines?ref=${ref}`);
    return pipeline ? session.rest<{ id: number; name: string; status: string }[]>('GET', `/projects/${project.id}/pipelines/${pipeline.id}/jobs`) : [];
  };

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Site', path: 'site', initialize_with_readme: true });
    runner = await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    await session.rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Add CI and the site',
      actions: [
        { action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG },
        { action: 'create', file_path: '.gitlab/route-map.yml', content: ROUTE_MAP },
        { action: 'create', file_path: 'source/index.html.haml', content: 'one\n' },
      ],
    });
    page = await session.signIn();
  });

  it('lists the exposed artifact under the pipeline and the changed page under View app', async () => {
    await session.rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'pages',
      start_branch: 'main',
      commit_message: 'Change the home page',
      actions: [{ action: 'update', file_path: 'source/index.html.haml', content: 'two\n' }],
    });
    // the runner's side: the report job uploads its archive, the review job deploys
    const base = `${session.server.url}/api/v4`;
    const done = new Set<string>();
    while (done.size < 2) {
      const job = await until(async () => {
        const response = await fetch(`${base}/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner.token }) });
        return response.status === 201 ? ((await response.json()) as { id: number; token: string; job_info: { name: string } }) : undefined;
      });
      if (job.job_info.name === 'report') {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(await zipOf({ 'coverage/index.html': '<p>95%</p>' }))]), 'artifacts.zip');
        expect((await fetch(`${base}/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
      }
      await fetch(`${base}/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'success' }) });
      done.add(job.job_info.name);
    }
    const mr = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'pages', target_branch: 'main', title: 'Change the home page' });
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}`);

    const toggle = container().getByRole('button', { name: 'View exposed artifact' });
    await toggle.click();
    const link = container().getByRole('link', { name: 'Coverage report' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^/api/v4/projects/${project.id}/jobs/\\d+/artifacts/coverage/index\\.html$`));
    await container().getByRole('link', { name: 'report', exact: true }).waitFor();
    // the pipeline's own artifacts: each job's archive to download
    await container().getByRole('button', { name: 'Artifacts' }).waitFor();
    await session.snap('exposed-artifacts', widget());
    await container().getByRole('button', { name: 'Artifacts' }).click();
    const archives = page.getByRole('menu', { name: 'Artifacts' });
    expect(await archives.getByRole('menuitem', { name: 'report' }).getAttribute('href')).toMatch(new RegExp(`^/api/v4/projects/${project.id}/jobs/\\d+/artifacts$`));
    await page.keyboard.press('Escape');

    const deployments = page.getByRole('region', { name: 'Deployments' });
    await deployments.getByRole('button', { name: 'View app' }).click();
    const menu = page.getByRole('menu', { name: 'View app' });
    const item = menu.getByRole('menuitem', { name: /index\.html/ });
    expect(await item.getAttribute('href')).toBe('https://pages.example.com/index.html');
    await menu.getByRole('menuitem', { name: 'pages.example.com', exact: true }).waitFor();
    // the menu's entrance animation has finished before the picture
    await page.waitForFunction(() => {
      const shown = document.querySelector('[role="menu"]');
      for (let element = shown; element && element !== document.body; element = element.parentElement) {
        if (getComputedStyle(element).opacity !== '1' || element.getAnimations().some((animation) => animation.playState === 'running')) return false;
      }
      return shown !== null;
    });
    await session.snap('changed-pages', page);
    await page.keyboard.press('Escape');
  });

  it('a canceled pipeline shows as canceled and asks Merge… like a failed one', async () => {
    await session.rest('POST', `/projects/${project.id}/repository/files/cancel.txt`, { branch: 'canceling', start_branch: 'main', content: 'x\n', commit_message: 'Add cancel.txt' });
    const jobs = await until(async () => {
      const found = await jobsOf('canceling');
      return found.length === 2 ? found : undefined;
    });
    const mr = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'canceling', target_branch: 'main', title: 'Cancel me' });
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}`);
    await container().getByText(/pending|running/).first().waitFor();
    for (const job of jobs) await session.server.app.services.pipelineEngine.transitionJob(job.id, 'cancel');
    await container().getByText(/canceled/).first().waitFor();
    await widget().getByRole('button', { name: 'Merge…' }).waitFor();
    // the mini graph reads the jobs again when the pipeline moves: its stage follows
    await container().getByRole('button', { name: /^Stage test: .*cancel/i }).waitFor();
    await session.snap('canceled', widget());
  });
});
