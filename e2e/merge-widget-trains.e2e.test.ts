import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The merge widget on a project with merge trains, against a real server whose pipelines' jobs
 * move as a runner's reports would: a car's position ('This merge request is #2 of 2 in queue.')
 * and its live update when the car ahead merges, with 'View merge train details.' leading to the
 * merge trains page (also reached from 'Merge trains' above the merge request list); and GitLab's
 * confirmations: 'Merge immediately' while a train strategy is preferred, 'Merge now and restart
 * train' / 'Merge now and don't restart train' where skipping is allowed, and 'Start merge train'
 * over a failed pipeline. Cancel changes nothing; confirming sends the merge with GitLab's payload.
 */
const session = browserSession('merge-widget-trains');

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
}

describe('the merge widget with merge trains', () => {
  let project: { id: number; path_with_namespace: string };
  let page: Page;
  const mrPath = (iid: number) => `/projects/${project.id}/merge_requests/${iid}`;
  const cars = () => session.rest<Car[]>('GET', `/projects/${project.id}/merge_trains?scope=active&sort=asc`);
  const widget = () => page.getByRole('region', { name: 'Merge status' });
  const state = async (iid: number) => (await session.rest<{ state: string }>('GET', mrPath(iid))).state;

  async function openMergeRequest(branch: string): Promise<number> {
    await session.rest('POST', `/projects/${project.id}/repository/files/${branch}.txt`, { branch, start_branch: 'main', content: `${branch}\n`, commit_message: `Add ${branch}` });
    const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Add ${branch}` });
    await until(async () => (await session.rest<{ id: number }[]>('GET', `${mrPath(iid)}/pipelines`))[0]);
    return iid;
  }

  /** The job of a pipeline ends as `status` (what the runner's report does). */
  async function finishPipeline(pipelineId: number, status: 'success' | 'failed'): Promise<void> {
    const [job] = await session.rest<Array<{ id: number }>>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
    const engine = session.server.app.services.pipelineEngine;
    if (status === 'success') await engine.transitionJob(job!.id, 'success');
    else await engine.transitionJob(job!.id, 'drop', { failure_reason: 'script_failure' });
  }

  /** The merge request's own pipeline ends as `status`; the widget shows it. */
  async function finishMergeRequestPipeline(iid: number, status: 'success' | 'failed'): Promise<void> {
    const [pipeline] = await session.rest<{ id: number }[]>('GET', `${mrPath(iid)}/pipelines`);
    await finishPipeline(pipeline!.id, status);
    await until(async () => (await session.rest<{ head_pipeline: { status: string } | null }>('GET', mrPath(iid))).head_pipeline?.status === status);
  }

  /** A picture of the page once its dialog finished opening. */
  async function snapDialog(name: string): Promise<void> {
    await page.waitForFunction(() => {
      const shown = document.querySelector('[role="dialog"]');
      return shown !== null && getComputedStyle(shown).opacity === '1' && shown.getAnimations().every((animation) => animation.playState !== 'running');
    });
    // Cancel has the focus: Enter must not merge by accident
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).evaluate((element) => element === document.activeElement)).toBe(true);
    await session.snap(name, page);
  }

  /** Waits for the next merge call of the page and answers its body. */
  const nextMergeCall = (iid: number) => page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith(`/merge_requests/${iid}/merge`)).then((request) => request.postDataJSON() as Record<string, unknown>);

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Trains', path: 'trains', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    await session.rest('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true, merge_trains_enabled: true });
    page = await session.signIn();
  });

  it("shows the car's place in the queue and moves it up live when the car ahead merges; 'View merge train details.' opens the train", async () => {
    const front = await openMergeRequest('fix-login');
    const behind = await openMergeRequest('faster-search');
    for (const iid of [front, behind]) await session.rest('POST', `/projects/${project.id}/merge_trains/merge_requests/${iid}`, {});
    await until(async () => {
      const queue = await cars();
      return queue.length === 2 && queue.every((car) => car.pipeline);
    });

    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${behind}`);
    const panel = widget().getByRole('group', { name: 'Auto-merge' });
    await panel.getByText('Added to the merge train by Administrator').waitFor();
    await panel.getByText('This merge request is #2 of 2 in queue.', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Remove from merge train' }).waitFor();
    await session.snap('position-second', widget());

    // the front car's train pipeline passes: it merges, and this page hears it without a reload
    await finishPipeline((await cars())[0]!.pipeline!.id, 'success');
    await until(async () => (await state(front)) === 'merged');
    // the moved target is checked first ('Checking if merge request can be merged…'), then the panel is back
    await until(async () => (await session.rest<{ detailed_merge_status: string }>('GET', mrPath(behind))).detailed_merge_status !== 'checking');
    await panel.getByText('A new merge train has started and this merge request is the first of the queue.', { exact: true }).waitFor();
    await session.snap('position-first', widget());

    // keyboard: the link opens the merge trains page
    await panel.getByRole('link', { name: 'View merge train details.' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Queue of main' }).getByRole('link', { name: `!${behind} Add faster-search` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${project.path_with_namespace}/-/merge_trains`);

    // and from the merge request list, where GitLab puts 'Merge trains'
    await page.goto(`/${project.path_with_namespace}/-/merge_requests`);
    await page.getByRole('link', { name: 'Merge trains' }).focus();
    await session.snap('merge-request-list', page);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Merge trains', level: 1 }).waitFor();
    // off the train again, so the next tests start without one
    await session.rest('POST', `${mrPath(behind)}/cancel_merge_when_pipeline_succeeds`);
  });

  it("'Merge immediately' asks first: Cancel changes nothing, confirming merges now without the train", async () => {
    const iid = await openMergeRequest('hotfix');
    await finishMergeRequestPipeline(iid, 'success');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await widget().getByText('Add to merge train', { exact: true }).waitFor();

    await widget().getByRole('button', { name: 'Select merge moment' }).click();
    await page.getByRole('menuitem', { name: 'Merge immediately' }).click();
    let dialog = page.getByRole('dialog', { name: 'Merge immediately' });
    await dialog.getByText('Are you sure you want to merge immediately?').waitFor();
    await snapDialog('merge-immediately-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await state(iid)).toBe('opened');

    await widget().getByRole('button', { name: 'Select merge moment' }).click();
    await page.getByRole('menuitem', { name: 'Merge immediately' }).click();
    dialog = page.getByRole('dialog', { name: 'Merge immediately' });
    const call = nextMergeCall(iid);
    await dialog.getByRole('button', { name: 'Merge immediately' }).click();
    const body = await call;
    expect(body).toMatchObject({ skip_merge_train: false });
    expect(body).not.toHaveProperty('auto_merge_strategy');
    await widget().getByText(/^Merged by/).waitFor();
    expect(await state(iid)).toBe('merged');
  });

  it("where skipping is allowed: restart or skip the train, each confirmed; skip sends skip_merge_train", async () => {
    await session.rest('PUT', `/projects/${project.id}`, { merge_trains_skip_train_allowed: true });
    const iid = await openMergeRequest('urgent');
    await finishMergeRequestPipeline(iid, 'success');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);

    await widget().getByRole('button', { name: 'Select merge moment' }).click();
    await page.getByRole('menuitem', { name: /^Merge now and restart train/ }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Merge immediately' }).count()).toBe(0);
    await session.snap('merge-train-choices', page);
    await page.getByRole('menuitem', { name: /^Merge now and restart train/ }).click();
    const restart = page.getByRole('dialog', { name: 'Merge now and restart train' });
    await restart.getByRole('link', { name: 'What are the risks?' }).waitFor();
    await restart.getByRole('button', { name: 'Cancel' }).click();
    await restart.waitFor({ state: 'detached' });
    expect(await state(iid)).toBe('opened');

    await widget().getByRole('button', { name: 'Select merge moment' }).click();
    await page.getByRole('menuitem', { name: /^Merge now and don't restart train/ }).click();
    const skip = page.getByRole('dialog', { name: "Merge now and don't restart train" });
    await skip.getByText(/Merging immediately is not recommended\. The merged changes could cause pipeline failures/).waitFor();
    await snapDialog('skip-train-dialog');
    const call = nextMergeCall(iid);
    await skip.getByRole('button', { name: "Merge now and don't restart train" }).click();
    expect(await call).toMatchObject({ skip_merge_train: true });
    await widget().getByText(/^Merged by/).waitFor();
    // GitLab keeps a skipped merge in the train's history
    const history = await session.rest<Array<{ merge_request: { iid: number }; status: string }>>('GET', `/projects/${project.id}/merge_trains?scope=complete`);
    expect(history.find((car) => car.merge_request.iid === iid)?.status).toBe('skip_merged');
  });

  it("adding a failed pipeline to the train asks 'Start merge train' first: Cancel adds nothing, confirming sends the train strategy", async () => {
    const iid = await openMergeRequest('flaky');
    await finishMergeRequestPipeline(iid, 'failed');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await widget().getByText('Add to merge train', { exact: true }).waitFor();

    await widget().getByRole('button', { name: 'Merge', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Start merge train' });
    await dialog.getByText('The latest pipeline failed for this merge request.').waitFor();
    await dialog.getByText('Do you still want to merge?').waitFor();
    await snapDialog('start-merge-train-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await cars()).some((car) => car.merge_request.iid === iid)).toBe(false);
    expect((await session.rest<{ merge_when_pipeline_succeeds: boolean }>('GET', mrPath(iid))).merge_when_pipeline_succeeds).toBe(false);

    await widget().getByRole('button', { name: 'Merge', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Start merge train' });
    const answer = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith(`/merge_requests/${iid}/merge`));
    const call = nextMergeCall(iid);
    await dialog.getByRole('button', { name: 'Start merge train' }).click();
    // the merge call with the train strategy, as GitLab's widget sends it
    expect(await call).toMatchObject({ auto_merge_strategy: 'merge_train', skip_merge_train: false });
    expect((await answer).status()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    // the car boards although the request's own pipeline failed: its train pipeline is what counts
    await until(async () => (await cars()).some((car) => car.merge_request.iid === iid));
  });
});
