import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * Upstream and downstream pipelines on the pipeline graph against a real server: a trigger job
 * creates a child pipeline (no runner here: the build job's end goes through the engine, as a
 * runner's report would), the parent's graph shows a Downstream card with the child's status and
 * links to it, the child's graph shows the Upstream card, and the cards follow the child's status.
 */
const session = browserSession('pipelines-downstream');

const CONFIG = `stages: [build, trigger]
build:
  stage: build
  script: make
child:
  stage: trigger
  trigger:
    include: child.yml
    strategy: depend
`;
const CHILD = `child-test:
  script: make test
`;

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('linked pipelines on the pipeline graph', () => {
  let project: { id: number; path_with_namespace: string };
  let parentId: number;
  let childId: number;
  let page: Page;
  const services = () => session.server.app.services;

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Parent', path: 'parent', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Add CI with a child pipeline',
      actions: [
        { action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG },
        { action: 'create', file_path: 'child.yml', content: CHILD },
      ],
    });
    parentId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    const build = (await services().pipelinesRepository.latestJobs(parentId)).find((job) => job.name === 'build')!;
    await services().pipelineEngine.transitionJob(build.id, 'success');
    const bridge = (await services().pipelinesRepository.latestJobs(parentId)).find((job) => job.name === 'child')!;
    childId = (await until(() => services().downstreamRepository.downstreamOfBridge(bridge.id)))!.id;
    page = await session.signIn();
  });

  it('shows the child as a Downstream card on the parent’s graph, and follows it there', async () => {
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${parentId}`);
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    const downstream = graph.getByRole('region', { name: 'Downstream pipelines' });
    const card = downstream.getByRole('link', { name: `Downstream pipeline #${childId} of Parent: pending` });
    await card.waitFor();
    await downstream.getByText(`#${childId} · child`).waitFor();
    expect(await card.textContent()).toBe('Child pipeline');
    await session.snap('parent-graph', page);

    await card.click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/pipelines/${childId}`);
    const upstream = page.getByRole('region', { name: 'Upstream pipelines' });
    const parentCard = upstream.getByRole('link', { name: `Upstream pipeline #${parentId} of Parent: running` });
    await parentCard.waitFor();
    expect(await parentCard.textContent()).toBe('Parent pipeline');
    await page.getByRole('region', { name: 'Pipeline graph' }).locator('[data-job="child-test"]').waitFor();
    await session.snap('child-graph', page);
  });

  it('the cards follow the child to success, without a reload', async () => {
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${parentId}`);
    const downstream = page.getByRole('region', { name: 'Downstream pipelines' });
    await downstream.getByRole('link', { name: `Downstream pipeline #${childId} of Parent: pending` }).waitFor();
    const childTest = (await services().pipelinesRepository.latestJobs(childId)).find((job) => job.name === 'child-test')!;
    await services().pipelineEngine.transitionJob(childTest.id, 'success');
    await downstream.getByRole('link', { name: `Downstream pipeline #${childId} of Parent: passed` }).waitFor();
    await page.locator('[data-status="success"]').getByText('passed').first().waitFor();
    await session.snap('parent-passed', page);
  });
});
