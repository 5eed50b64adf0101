import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * The merge widget's pipeline against a real server: merge request pipelines created when a request
 * is opened, their jobs moved through the engine (as a runner's reports would move them), and the
 * widget following without a reload: running, passed (then merged, with the post-merge pipeline
 * followed live too),
 * failed ('Merge…' and 'Merge unverified changes?' with its Run pipeline), blocked on a manual job
 * when pipelines must succeed, skipped, the retarget advice with Run pipeline, and, in a project
 * without CI, the suggestion to add a pipeline, dismissed for good.
 */
const session = browserSession('merge-widget-pipeline');

const CONFIG = `mr-test:
  script: make test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
build:
  script: make
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
`;

/** A source branch whose pipeline waits on a manual job that may not fail (GitLab's blocked pipeline). */
const MANUAL_CONFIG = `gate:
  script: make release
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
      when: manual
`;

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Pipeline {
  id: number;
  status: string;
}

describe('the merge widget pipeline', () => {
  let project: { id: number; path_with_namespace: string };
  let page: Page;
  const engine = () => session.server.app.services.pipelineEngine;
  const pipelinesOf = (iid: number) => session.rest<Pipeline[]>('GET', `/projects/${project.id}/merge_requests/${iid}/pipelines`);
  const jobsOf = (pipelineId: number) => session.rest<{ id: number; name: string; status: string }[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);

  /** Opens a merge request from a new branch; resolves once its pipeline exists. */
  async function openMergeRequest(branch: string, ciConfig?: string): Promise<{ iid: number; pipelineId: number; jobId: number }> {
    await session.rest('POST', `/projects/${project.id}/repository/files/${branch}.txt`, { branch, start_branch: 'main', content: `${branch}\n`, commit_message: `Add ${branch}` });
    if (ciConfig) await session.rest('PUT', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch, content: ciConfig, commit_message: 'Change CI' });
    const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Add ${branch}` });
    const pipeline = await until(async () => (await pipelinesOf(iid))[0]);
    const job = await until(async () => (await jobsOf(pipeline.id))[0]);
    return { iid, pipelineId: pipeline.id, jobId: job.id };
  }

  const widget = () => page.getByRole('region', { name: 'Merge status' });
  const container = () => widget().getByRole('group', { name: 'Pipeline', exact: true });

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Widget pipes', path: 'widget-pipes', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    page = await session.signIn();
  });

  it('follows a running pipeline to passed without a reload; Merge merges, and the post-merge pipeline shows', async () => {
    const { iid, pipelineId, jobId } = await openMergeRequest('passing');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await container().getByRole('link', { name: `#${pipelineId}` }).waitFor();
    await container().getByText('Merge request pipeline', { exact: false }).first().waitFor();
    await container().getByRole('group', { name: 'Pipeline mini graph' }).waitFor();

    await engine().transitionJob(jobId, 'run');
    await container().getByText(/running/).first().waitFor();
    // the mini graph reads its jobs again when the pipeline moves
    await container().getByRole('button', { name: 'Stage test: running' }).waitFor();
    await session.snap('running', widget());

    await engine().transitionJob(jobId, 'success');
    await container().getByText(/passed/).first().waitFor();
    await container().getByRole('button', { name: 'Stage test: passed' }).waitFor();
    await container().getByRole('link', { name: /^Commit [0-9a-f]{8}$/ }).waitFor();
    const merge = widget().getByRole('button', { name: 'Merge', exact: true });
    await merge.waitFor();
    await session.snap('passed', widget());

    await merge.click();
    await widget().getByText('Merged by', { exact: false }).first().waitFor();
    // the merge commit's pipeline on main, the post-merge pipeline: created after the merge and
    // announced to the merged request with each move, so the open page follows it without a reload
    const mainPipeline = await until(async () => (await session.rest<Pipeline[]>('GET', `/projects/${project.id}/pipelines?ref=main`)).find((pipeline) => pipeline.id > pipelineId));
    const postMerge = widget().getByRole('group', { name: 'Post-merge pipeline' });
    await postMerge.getByRole('link', { name: `#${mainPipeline.id}` }).waitFor();
    await postMerge.getByText('main', { exact: true }).waitFor();
    const [build] = await jobsOf(mainPipeline.id);
    await engine().transitionJob(build!.id, 'run');
    await postMerge.getByText(/running/).first().waitFor();
    await engine().transitionJob(build!.id, 'success');
    await postMerge.getByText(/passed/).first().waitFor();
    await session.snap('post-merge', widget());
  });

  it("a failed pipeline: 'Merge…' asks 'Merge unverified changes?'; its Run pipeline runs a new one that the widget shows", async () => {
    const { iid, pipelineId, jobId } = await openMergeRequest('failing');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await container().getByRole('link', { name: `#${pipelineId}` }).waitFor();
    await engine().transitionJob(jobId, 'drop', { failure_reason: 'script_failure' });
    await container().getByText(/failed/).first().waitFor();

    await widget().getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge unverified changes?' });
    await dialog.getByText('Are you sure you want to attempt to merge?').waitFor();
    await dialog.getByRole('button', { name: 'Merge unverified changes' }).waitFor();
    // the dialog's entrance animation has finished before the picture
    await page.waitForFunction(() => {
      const shown = document.querySelector('[role="dialog"]');
      return shown !== null && getComputedStyle(shown).opacity === '1' && shown.getAnimations().every((animation) => animation.playState !== 'running');
    });
    await session.snap('failed-dialog', dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await widget().getByRole('button', { name: 'Merge…' }).click();
    await dialog.getByRole('button', { name: 'Run pipeline' }).click();
    const next = await until(async () => (await pipelinesOf(iid)).find((pipeline) => pipeline.id > pipelineId));
    await container().getByRole('link', { name: `#${next.id}` }).waitFor();
    expect((await session.rest<{ state: string }>('GET', `/projects/${project.id}/merge_requests/${iid}`)).state).toBe('opened');
  });

  it('a pipeline blocked on a manual job: no plain Merge while pipelines must succeed, only auto-merge', async () => {
    await session.rest('PUT', `/projects/${project.id}`, { only_allow_merge_if_pipeline_succeeds: true });
    try {
      const { iid, pipelineId } = await openMergeRequest('blocked', MANUAL_CONFIG);
      await until(async () => (await pipelinesOf(iid))[0]?.status === 'manual');
      await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
      await container().getByRole('link', { name: `#${pipelineId}` }).waitFor();
      await container().getByText(/waiting for manual action/).first().waitFor();
      // the pipeline can still pass (someone plays the job), so GitLab offers to merge when it does
      await widget().getByRole('button', { name: 'Set to auto-merge' }).waitFor();
      expect(await widget().getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
      await widget().getByText('Pipeline must succeed.').waitFor();
      await session.snap('blocked', widget());
    } finally {
      await session.rest('PUT', `/projects/${project.id}`, { only_allow_merge_if_pipeline_succeeds: false });
    }
  });

  it('a skipped pipeline shows as skipped', async () => {
    const { iid, pipelineId, jobId } = await openMergeRequest('skipping');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await container().getByRole('link', { name: `#${pipelineId}` }).waitFor();
    await engine().transitionJob(jobId, 'skip');
    await container().getByText(/skipped/).first().waitFor();
    await session.snap('skipped', widget());
  });

  it('after a retarget (merged results pipelines on) advises a new pipeline; Run pipeline runs it', async () => {
    await session.rest('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true });
    await session.rest('POST', `/projects/${project.id}/repository/branches`, { branch: 'develop', ref: 'main' });
    const { iid, pipelineId } = await openMergeRequest('retargeting');
    await session.rest('PUT', `/projects/${project.id}/merge_requests/${iid}`, { target_branch: 'develop' });
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const advice = widget().getByText('You should run a new pipeline, because the target branch has changed for this merge request.');
    await advice.waitFor();
    await session.snap('retargeted', widget());
    await container().getByRole('button', { name: 'Run pipeline' }).click();
    const next = await until(async () => (await pipelinesOf(iid)).find((pipeline) => pipeline.id > pipelineId));
    await container().getByRole('link', { name: `#${next.id}` }).waitFor();
    await advice.waitFor({ state: 'hidden' });
  });

  it("without CI suggests a pipeline to someone who may push; dismissed, it stays dismissed after a reload", async () => {
    const plain = await session.rest<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'Plain', path: 'plain', initialize_with_readme: true });
    await session.rest('POST', `/projects/${plain.id}/repository/files/idea.txt`, { branch: 'idea', start_branch: 'main', content: 'idea\n', commit_message: 'Add idea' });
    const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${plain.id}/merge_requests`, { source_branch: 'idea', target_branch: 'main', title: 'Add idea' });
    await page.goto(`/${plain.path_with_namespace}/-/merge_requests/${iid}`);
    const suggestion = widget().getByRole('group', { name: "Looks like there's no pipeline here." });
    await suggestion.waitFor();
    const link = suggestion.getByRole('link', { name: 'Try out GitLab Pipelines' });
    expect(await link.getAttribute('href')).toBe(`/${plain.path_with_namespace}/-/new/idea?file_name=.gitlab-ci.yml&commit_message=Add+.gitlab-ci.yml`);
    await session.snap('suggestion', widget());

    await suggestion.getByRole('button', { name: 'Dismiss' }).click();
    await suggestion.waitFor({ state: 'hidden' });
    await until(async () => {
      const response = await page.request.get('/-/users/callouts');
      const body = (await response.json()) as { callouts: { feature_name: string }[] };
      return body.callouts.some((callout) => callout.feature_name === 'suggest_pipeline');
    });
    await page.reload();
    await widget().getByRole('group', { name: 'Merge checks' }).waitFor();
    expect(await suggestion.count()).toBe(0);
  });
});
