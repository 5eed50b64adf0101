import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The pipeline graph's job groups and `needs` lines against a real server: `parallel: 3` and a
 * `parallel: matrix` show as one card each with their count and a dropdown of their jobs (status
 * and action); "Group jobs by: Job dependencies" lays the cards out by needs and, once "Show
 * dependencies" is on, draws one SVG path per needed card (with GitLab's hover tip, dismissed for
 * good); hovering a card highlights its needs chain; the grouping is remembered across reloads
 * (GitLab's `pipeline_graph_view_type` in localStorage), the switch is not (GitLab's neither). A delayed job offers
 * its countdown and GitLab's Unschedule action, after which it is a manual job. Jobs move through the engine's
 * service, as a runner's reports would.
 */
const session = browserSession('pipeline-graph');

const CONFIG = `stages: [build, test, deploy]
compile:
  stage: build
  script: make
lint:
  stage: build
  script: make lint
rspec:
  stage: test
  parallel: 3
  needs: [compile]
  script: rspec
matrix:
  stage: test
  parallel:
    matrix:
      - RUBY: ["3.2", "3.3"]
  needs: [compile, lint]
  script: test
deploy:
  stage: deploy
  needs: [rspec, matrix]
  script: deploy
`;

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('pipeline graph: job groups and needs', () => {
  let project: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let page: Page;
  const jobs = async () => session.rest<{ id: number; name: string }[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
  const jobId = async (name: string) => (await jobs()).find((job) => job.name === name)!.id;
  const engine = () => session.server.app.services.pipelineEngine;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Graph', path: 'graph', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    pipelineId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    page = await session.signIn();
  });

  it('shows parallel and matrix jobs as one card per group, with a dropdown of the jobs', async () => {
    // compile and lint pass; rspec 2/3 fails, the other two pass: the group is failed
    for (const name of ['compile', 'lint']) await engine().transitionJob(await jobId(name), 'success');
    await engine().transitionJob(await jobId('rspec 1/3'), 'success');
    await engine().transitionJob(await jobId('rspec 2/3'), 'drop', { failure_reason: 'script_failure' });
    await engine().transitionJob(await jobId('rspec 3/3'), 'success');

    await page.goto(`/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    const test = graph.getByRole('list', { name: 'Jobs of stage test' });
    const rspec = test.getByRole('button', { name: 'rspec, 3 jobs: failed' });
    await rspec.waitFor();
    await test.getByRole('button', { name: /^matrix, 2 jobs: / }).waitFor();
    expect(await test.locator(':scope > li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.job))).toEqual(['matrix', 'rspec']);
    await session.snap('stages', page);

    await rspec.click();
    const menu = page.getByRole('list', { name: 'Jobs of rspec' });
    expect(await menu.getByRole('link').allTextContents()).toEqual(['rspec 1/3', 'rspec 2/3', 'rspec 3/3']);
    await menu.locator('[data-job="rspec 2/3"]').getByRole('img', { name: /^Status: failed/ }).waitFor();
    await menu.getByRole('button', { name: 'Run this job again: rspec 2/3' }).waitFor();
    await session.snap('group-dropdown', page);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('draws one line per need once "Show dependencies" is on, and highlights the hovered card’s needs chain', async () => {
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    await page.getByRole('button', { name: 'Job dependencies' }).click();
    await graph.getByRole('list', { name: 'Jobs of column 3' }).locator('[data-job="deploy"]').waitFor();
    // GitLab's switch: off until turned on, no lines until then
    const showDependencies = page.getByRole('button', { name: 'Show dependencies' });
    expect(await showDependencies.getAttribute('aria-pressed')).toBe('false');
    expect(await graph.locator('[data-testid="needs-links"]').count()).toBe(0);
    await showDependencies.click();
    await page.getByText('Tip: Hover over a job to see the jobs it depends on to run.').waitFor();
    // rspec → compile; matrix → compile, lint; deploy → rspec, matrix
    const paths = graph.locator('[data-testid="needs-links"] path');
    await until(async () => (await paths.count()) === 5);
    const drawn = await paths.evaluateAll((elements) => elements.map((element) => `${element.getAttribute('data-from')}→${element.getAttribute('data-to')}`).sort());
    expect(drawn).toEqual(['deploy→matrix', 'deploy→rspec', 'matrix→compile', 'matrix→lint', 'rspec→compile']);
    // each path is a real curve between two measured cards
    expect(await paths.evaluateAll((elements) => elements.every((element) => (element as SVGPathElement).getTotalLength() > 10))).toBe(true);
    // the card's accessible description names its needs
    const deployLink = graph.getByRole('link', { name: 'deploy' });
    const description = await deployLink.evaluate((element) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent);
    expect(description).toBe('Needs: rspec, matrix');

    await graph.locator('[data-job="rspec"]').hover();
    await graph.locator('path[data-highlighted]').first().waitFor();
    expect(await graph.locator('path[data-highlighted]').evaluateAll((elements) => elements.map((element) => `${element.getAttribute('data-from')}→${element.getAttribute('data-to')}`))).toEqual(['rspec→compile']);
    await graph.locator('[data-job="deploy"]').hover();
    await until(async () => (await graph.locator('path[data-highlighted]').count()) === 5);
    await session.snap('dependencies-hover', page);

    // the tip, dismissed, stays away (GitLab's pipeline_needs_hover_tip callout)
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('Tip: Hover over a job to see the jobs it depends on to run.').waitFor({ state: 'detached' });

    // back to stages: no lines and no switch
    await page.getByRole('button', { name: 'Stage' }).click();
    await graph.getByRole('heading', { name: 'build' }).waitFor();
    expect(await graph.locator('[data-testid="needs-links"]').count()).toBe(0);
    expect(await showDependencies.count()).toBe(0);
  });

  it('remembers "Group jobs by" (not "Show dependencies") across reloads, under GitLab’s localStorage key', async () => {
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    const dependencies = page.getByRole('button', { name: 'Job dependencies' });
    await dependencies.click();
    await graph.getByRole('list', { name: 'Jobs of column 3' }).locator('[data-job="deploy"]').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('pipeline_graph_view_type'))).toBe('layer');
    await page.reload();
    await graph.getByRole('list', { name: 'Jobs of column 3' }).locator('[data-job="deploy"]').waitFor();
    expect(await dependencies.getAttribute('aria-pressed')).toBe('true');
    // only the grouping is remembered: the lines wait for "Show dependencies" again, and the dismissed tip stays away
    const showDependencies = page.getByRole('button', { name: 'Show dependencies' });
    expect(await showDependencies.getAttribute('aria-pressed')).toBe('false');
    expect(await graph.locator('[data-testid="needs-links"]').count()).toBe(0);
    await showDependencies.click();
    await until(async () => (await graph.locator('[data-testid="needs-links"] path').count()) === 5);
    expect(await page.getByText('Tip: Hover over a job to see the jobs it depends on to run.').count()).toBe(0);
    await session.snap('dependencies-after-reload', page);

    await page.getByRole('button', { name: 'Stage' }).click();
    await graph.getByRole('heading', { name: 'build' }).waitFor();
    await page.reload();
    await graph.getByRole('heading', { name: 'build' }).waitFor();
    expect(await page.getByRole('button', { name: 'Stage' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => window.localStorage.getItem('pipeline_graph_view_type'))).toBe('stage');
  });

  it('unschedules a delayed job from its card: it becomes a manual job to run', async () => {
    const delayed = await session.rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'Delayed', path: 'delayed', initialize_with_readme: true });
    const ci = `rollout:\n  when: delayed\n  start_in: 1 hour\n  script: deploy\n`;
    await session.rest('POST', `/projects/${delayed.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: ci, commit_message: 'Add CI' });
    const pipeline = await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${delayed.id}/pipelines`))[0]);
    await until(async () => (await session.rest<{ status: string }[]>('GET', `/projects/${delayed.id}/pipelines/${pipeline.id}/jobs`))[0]?.status === 'scheduled');

    await page.goto(`/${delayed.path_with_namespace}/-/pipelines/${pipeline.id}`);
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    const unschedule = graph.getByRole('button', { name: 'Unschedule job: rollout' });
    await unschedule.waitFor();
    // its countdown, from GraphQL's scheduledAt, ticks every second
    const timer = graph.getByRole('timer');
    const first = (await timer.textContent()) ?? '';
    expect(first).toMatch(/^00:59:\d\d$/);
    await until(async () => (await timer.textContent()) !== first);
    await session.snap('delayed-job', page);
    await unschedule.click();
    await graph.getByRole('button', { name: 'Run job: rollout' }).waitFor();
    expect(await graph.getByRole('timer').count()).toBe(0);
    expect((await session.rest<{ status: string }[]>('GET', `/projects/${delayed.id}/pipelines/${pipeline.id}/jobs`))[0]!.status).toBe('manual');
    await session.snap('unscheduled-job', page);
  });
});
