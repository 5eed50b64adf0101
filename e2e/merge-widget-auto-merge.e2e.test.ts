import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';

/**
 * Auto-merge in the merge widget against a real server, its pipeline's job run through the
 * runner protocol (the requests gitlab-runner sends): while the pipeline runs the widget offers
 * 'Set to auto-merge' with GitLab's helper text and the merge-moment dropdown; setting it shows
 * the 'auto-merge enabled' panel with who set it and Cancel auto-merge; once the job passes the
 * request merges itself and the widget shows it merged without a reload. Cancel auto-merge
 * brings the merge controls back.
 */
const session = browserSession('merge-widget-auto-merge');

const CONFIG = `mr-test:
  script: make test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`;

const RUNNER_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)' };
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, masking: true, raw_variables: true, return_exit_code: true } };

async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('auto-merge in the merge widget', () => {
  let project: { id: number; path_with_namespace: string };
  let runner: { id: number; token: string };
  let page: Page;

  /** gitlab-runner takes the next pending job and reports success. */
  async function runNextJob(): Promise<void> {
    const url = session.server.url;
    const payload = await until(async () => {
      const response = await fetch(`${url}/api/v4/jobs/request`, { method: 'POST', headers: { ...RUNNER_HEADERS, 'RUNNER-TOKEN': runner.token }, body: JSON.stringify({ info: RUNNER_INFO, token: runner.token, last_update: '' }) });
      return response.status === 201 ? ((await response.json()) as { id: number; token: string }) : undefined;
    });
    const update = await fetch(`${url}/api/v4/jobs/${payload.id}`, { method: 'PUT', headers: { ...RUNNER_HEADERS, 'JOB-TOKEN': payload.token }, body: JSON.stringify({ info: RUNNER_INFO, token: payload.token, state: 'success', exit_code: 0 }) });
    expect(update.status).toBe(200);
  }

  async function openMergeRequest(branch: string): Promise<number> {
    await session.rest('POST', `/projects/${project.id}/repository/files/${branch}.txt`, { branch, start_branch: 'main', content: `${branch}\n`, commit_message: `Add ${branch}` });
    const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Add ${branch}` });
    await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/merge_requests/${iid}/pipelines`))[0]);
    return iid;
  }

  const widget = () => page.getByRole('region', { name: 'Merge status' });

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Auto merge', path: 'auto-merge', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    runner = await session.rest('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    page = await session.signIn();
  });

  it('sets auto-merge while the pipeline runs, shows who set it, and merges when the runner reports success', async () => {
    const iid = await openMergeRequest('auto');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const setButton = widget().getByRole('button', { name: 'Set to auto-merge' });
    await setButton.waitFor();
    await widget().getByText('Merge when all merge checks pass', { exact: true }).waitFor();
    // the merge-moment dropdown offers merging now instead
    await widget().getByRole('button', { name: 'Select merge moment' }).click();
    await page.getByRole('menuitem', { name: 'Merge immediately' }).waitFor();
    await session.snap('merge-moment', page);
    await page.keyboard.press('Escape');

    await setButton.click();
    const panel = widget().getByRole('group', { name: 'Auto-merge' });
    await panel.getByText('Set by Administrator to be merged automatically when all merge checks pass').waitFor();
    await panel.getByRole('button', { name: 'Cancel auto-merge' }).waitFor();
    expect(await widget().getByRole('button', { name: 'Set to auto-merge' }).count()).toBe(0);
    await session.snap('auto-merge-enabled', widget());

    await runNextJob();
    await widget().getByText(/^Merged by/).waitFor();
    await session.snap('merged-automatically', widget());
    const mr = await session.rest<{ state: string; merge_when_pipeline_succeeds: boolean }>('GET', `/projects/${project.id}/merge_requests/${iid}`);
    expect(mr.state).toBe('merged');
  });

  it('Cancel auto-merge brings the merge controls back', async () => {
    const iid = await openMergeRequest('cancelled');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    await widget().getByRole('button', { name: 'Set to auto-merge' }).click();
    const panel = widget().getByRole('group', { name: 'Auto-merge' });
    await panel.getByRole('button', { name: 'Cancel auto-merge' }).click();
    await widget().getByRole('button', { name: 'Set to auto-merge' }).waitFor();
    const mr = await session.rest<{ merge_when_pipeline_succeeds: boolean }>('GET', `/projects/${project.id}/merge_requests/${iid}`);
    expect(mr.merge_when_pipeline_succeeds).toBe(false);
    await runNextJob();
  });
});
