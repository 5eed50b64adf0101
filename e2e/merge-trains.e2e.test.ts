import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The merge trains page against a real server: an empty project shows its empty state; two merge
 * requests on the train of main are listed front first with their train pipelines; once the front
 * car's pipeline passes (its job moved as a runner's report would) it merges and moves to the
 * Merged tab.
 */
const session = browserSession('merge-trains');

const CONFIG = ['stages: [test]', 'test:', '  stage: test', '  script: make test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Car {
  merge_request: { iid: number };
  pipeline: { id: number; status: string } | null;
  status: string;
}

describe('merge trains page', () => {
  let project: { id: number; path_with_namespace: string };
  let page: Page;
  const iids: number[] = [];
  const cars = () => session.rest<Car[]>('GET', `/projects/${project.id}/merge_trains?scope=active&sort=asc`);

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Rails', path: 'rails', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    await session.rest('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true, merge_trains_enabled: true });
    page = await session.signIn();
  });

  it('shows the empty state, then each car of the queue with its pipeline, then the merged history', async () => {
    await page.goto(`/${project.path_with_namespace}/-/merge_trains`);
    await page.getByRole('heading', { name: 'No merge requests on a merge train' }).waitFor();
    await page.waitForFunction((word) => document.title.includes(word), 'Merge trains');

    for (const name of ['fix-login', 'faster-search']) {
      await session.rest('POST', `/projects/${project.id}/repository/commits`, { branch: name, start_branch: 'main', commit_message: name, actions: [{ action: 'create', file_path: `${name}.txt`, content: `${name}\n` }] });
      const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: name, target_branch: 'main', title: `Add ${name}` });
      await until(async () => (await session.rest<{ sha: string | null }>('GET', `/projects/${project.id}/merge_requests/${iid}`)).sha);
      iids.push(iid);
    }
    for (const iid of iids) await session.rest('POST', `/projects/${project.id}/merge_trains/merge_requests/${iid}`, {});
    await until(async () => (await cars()).every((car) => car.pipeline));

    const queue = page.getByRole('table', { name: 'Queue of main' });
    const first = queue.getByRole('row').filter({ has: page.getByRole('link', { name: `!${iids[0]} Add fix-login` }) });
    await first.getByText('#1', { exact: true }).waitFor();
    await first.getByRole('link', { name: /^#\d+$/ }).waitFor();
    await queue.getByRole('row').filter({ has: page.getByRole('link', { name: `!${iids[1]} Add faster-search` }) }).getByText('#2', { exact: true }).waitFor();
    await session.snap('queue', page);

    // the front car's pipeline passes: it merges
    const engine = session.server.app.services.pipelineEngine;
    const front = (await cars())[0]!;
    const [job] = await session.rest<Array<{ id: number }>>('GET', `/projects/${project.id}/pipelines/${front.pipeline!.id}/jobs`);
    await engine.transitionJob(job!.id, 'success');
    await until(async () => (await session.rest<{ state: string }>('GET', `/projects/${project.id}/merge_requests/${iids[0]}`)).state === 'merged');

    await page.getByRole('navigation', { name: 'Merge trains' }).getByRole('link', { name: 'Merged' }).click();
    const merged = page.getByRole('table', { name: 'Merged merge requests' });
    const row = merged.getByRole('row').filter({ has: page.getByRole('link', { name: `!${iids[0]} Add fix-login` }) });
    await row.getByText('Merged', { exact: true }).waitFor();
    expect(await merged.getByRole('link', { name: `!${iids[1]} Add faster-search` }).count()).toBe(0);
    await session.snap('merged', page);
  });
});
