import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';
import { until } from './support/until.js';

/**
 * A merged results pipeline that fails only because of the target's change, in the browser, with
 * `tributary runner` as a real child process running the jobs' scripts: the source branch alone
 * passes, the target moves on with a change the source does not know, and the merged results
 * pipeline (run on the trial merge of both) fails. The widget shows it as the request's pipeline,
 * titled 'Merged results pipeline', failed, and with pipelines that must succeed there is no
 * plain Merge.
 */
const session = browserSession('merged-results-pipeline');
const TRIBUTARY_BIN = fileURLToPath(new URL('../server/bin/tributary.js', import.meta.url));

// The check passes unless the tree holds both the feature and the target's new limit.
const CI = `check:
  script:
    - if [ -f feature.txt ] && [ -f limit.txt ]; then echo "feature.txt breaks the limit"; exit 1; fi
    - echo all good
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_PIPELINE_SOURCE == "push"
`;

interface Pipeline {
  id: number;
  ref: string;
  source: string;
  status: string;
}

describe('a merged results pipeline that fails because of the target’s change', () => {
  const buildsDir = mkdtempSync(join(tmpdir(), 'merged-results-e2e-'));
  let runner: ChildProcess | undefined;
  let output = '';
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Merged results', path: 'merged-results', initialize_with_readme: true });
    const { token } = await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true });
    runner = spawn(process.execPath, [TRIBUTARY_BIN, 'runner', '--url', session.server.url, '--concurrent', '2', '--builds-dir', join(buildsDir, 'builds'), '--name', 'merged-results-e2e'], {
      env: { ...process.env, TRIBUTARY_RUNNER_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    runner.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(async () => {
    // the runner stops before the server closes (the session's own afterAll)
    if (runner && runner.exitCode === null && runner.signalCode === null) {
      const exited = new Promise((resolve) => runner!.once('exit', resolve));
      runner.kill('SIGTERM');
      await exited;
    }
    rmSync(buildsDir, { recursive: true, force: true });
  });

  it("the widget shows the failed 'Merged results pipeline' and offers no plain Merge", async () => {
    const pipelines = () => session.rest<Pipeline[]>('GET', `/projects/${project.id}/pipelines?per_page=100`);
    const finished = (pipeline: Pipeline | undefined) => (pipeline && ['success', 'failed'].includes(pipeline.status) ? pipeline : undefined);
    const files = (path: string) => `/projects/${project.id}/repository/files/${encodeURIComponent(path)}`;

    await session.rest('POST', files('.gitlab-ci.yml'), { branch: 'main', content: CI, commit_message: 'Add CI' });
    await session.rest('PUT', `/projects/${project.id}`, { merge_pipelines_enabled: true, only_allow_merge_if_pipeline_succeeds: true });
    // the source branch alone passes
    await session.rest('POST', files('feature.txt'), { branch: 'feature', start_branch: 'main', content: 'feature\n', commit_message: 'Add the feature' });
    const branchPipeline = await until(async () => finished((await pipelines()).find((p) => p.ref === 'feature' && p.source === 'push')));
    expect(branchPipeline.status).toBe('success');
    // the target moves on with a change the source does not know
    await session.rest('POST', files('limit.txt'), { branch: 'main', content: 'limit\n', commit_message: 'Add the limit' });
    const { iid } = await session.rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add the feature' });
    const merged = await until(async () => finished((await pipelines()).find((p) => p.ref === `refs/merge-requests/${iid}/merge`)));
    expect(merged.status, `runner output:\n${output}`).toBe('failed');

    const page = await session.signIn();
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const widget = page.getByRole('region', { name: 'Merge status' });
    const container = widget.getByRole('group', { name: 'Pipeline', exact: true });
    await container.getByRole('link', { name: `#${merged.id}` }).waitFor();
    await container.getByText('Merged results pipeline', { exact: false }).first().waitFor();
    await container.getByText(/failed/).first().waitFor();
    // pipelines must succeed: no plain Merge for a failed pipeline
    await widget.getByText('Pipeline must succeed.').waitFor();
    expect(await widget.getByRole('button', { name: 'Merge', exact: true }).count()).toBe(0);
    await session.snap('merged-results-failed', widget);
    // the source branch's own pipeline still passed: the failure is the combination's
    expect((await pipelines()).find((p) => p.id === branchPipeline.id)!.status).toBe('success');
  }, 300_000);
});
