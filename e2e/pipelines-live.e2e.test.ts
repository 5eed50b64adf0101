import type { Page, WebSocket as PageSocket } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from './support/session.js';
import { until } from './support/until.js';
import { zipOf } from '../server/src/test-support/zip.js';

/**
 * The pipeline pages live: every transition is driven through the runner protocol's API, exactly
 * as a runner would (POST /jobs/request, PATCH /jobs/:id/trace, the artifacts upload, PUT
 * /jobs/:id), and shows in the open pages without a reload — the pipelines list, the graph, the
 * job page and its log as it grows — because the page's GraphQL subscription says so (the frames
 * the page's WebSocket receives are checked). Then the job's artifacts box and the artifacts
 * browser.
 */
const session = browserSession('pipelines-live');

const CONFIG = `stages: [build, test]
build:
  stage: build
  script: [make]
  artifacts:
    paths: [out/]
    expire_in: 1 week
test:
  stage: test
  script: [make test]
`;

/** The GraphQL messages (`next`) the page's sockets received, by subscription field. */
function recordSubscriptionMessages(page: Page): string[] {
  const heard: string[] = [];
  page.on('websocket', (socket: PageSocket) => {
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString();
      const message = JSON.parse(text) as { type?: string; payload?: { data?: Record<string, unknown> } };
      if (message.type === 'next' && message.payload?.data) heard.push(...Object.keys(message.payload.data));
    });
  });
  return heard;
}

describe('live pipeline and job pages', () => {
  let project: { id: number; path_with_namespace: string };
  let pipelineId: number;
  let runnerToken: string;
  let page: Page;
  let heard: string[];
  const base = () => session.server.url;

  const requestJob = async () => {
    const response = await fetch(`${base()}/api/v4/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runnerToken }) });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; token: string; job_info: { name: string } };
  };
  const appendLog = async (job: { id: number; token: string }, start: number, text: string | Buffer) => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    const response = await fetch(`${base()}/api/v4/jobs/${job.id}/trace`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': `${start}-${start + bytes.length - 1}` },
      body: new Uint8Array(bytes),
    });
    expect(response.status).toBe(202);
    return start + bytes.length;
  };
  const report = async (job: { id: number; token: string }, state: 'success' | 'failed') => {
    const response = await fetch(`${base()}/api/v4/jobs/${job.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token },
      body: JSON.stringify({ token: job.token, state, ...(state === 'failed' ? { failure_reason: 'script_failure', exit_code: 2 } : {}) }),
    });
    expect(response.status).toBe(200);
  };
  const pendingJob = (name: string) =>
    until(async () => (await session.rest<{ name: string; status: string }[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`)).find((job) => job.name === name && job.status === 'pending'));
  /** The page has not been reloaded since `markNoReload`. */
  const markNoReload = () => page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 42));
  const stillSamePage = async () => expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42);

  beforeAll(async () => {
    project = await session.rest('POST', '/projects', { name: 'Live', path: 'live', initialize_with_readme: true });
    await session.rest('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch: 'main', content: CONFIG, commit_message: 'Add CI' });
    pipelineId = (await until(async () => (await session.rest<{ id: number }[]>('GET', `/projects/${project.id}/pipelines`))[0])).id;
    runnerToken = (await session.rest<{ token: string }>('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, run_untagged: true })).token;
    page = await session.signIn();
    heard = recordSubscriptionMessages(page);
  });

  let build: { id: number; token: string; job_info: { name: string } };

  it('the pipelines list shows the runner picking the first job', async () => {
    await pendingJob('build');
    await page.goto(`/${project.path_with_namespace}/-/pipelines`);
    const row = page.getByRole('table', { name: 'Pipelines' }).getByRole('row').filter({ has: page.getByRole('link', { name: `Pipeline #${pipelineId}` }) });
    await row.getByText('pending').waitFor();
    await markNoReload();
    build = await requestJob();
    expect(build.job_info.name).toBe('build');
    await row.getByText('running').waitFor();
    await stillSamePage();
    expect(heard).toContain('ciPipelineStatusesUpdated');
    await session.snap('list-running', page);
  });

  it('the job page streams the log as the runner appends it, then shows the result and the artifacts box', async () => {
    await page.getByRole('link', { name: `Pipeline #${pipelineId}` }).click();
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    await graph.locator('[data-job="build"]').getByRole('img', { name: 'Status: running' }).waitFor();
    await graph.getByRole('link', { name: 'build' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/jobs/${build.id}`);
    await page.getByRole('heading', { name: 'No job log' }).waitFor();
    await markNoReload();

    const log = page.getByRole('log', { name: 'Job log' });
    let offset = await appendLog(build, 0, '\u001b[32;1mRunning with tributary runner\u001b[0;m\nsection_start:1700000000:build_script\r\u001b[0K\u001b[36;1mExecuting "step_script" stage\u001b[0;m\n$ make\n');
    await log.getByText('Running with tributary runner').waitFor();
    offset = await appendLog(build, offset, 'compiling 1 of 2\ncompiling 2 of 2\n');
    await log.getByText('compiling 2 of 2').waitFor();
    // a UTF-8 character split between two chunks comes out whole
    const snowman = Buffer.from('built ☃ ok\n');
    const cut = snowman.indexOf(0xe2) + 1;
    offset = await appendLog(build, offset, snowman.subarray(0, cut));
    expect(heard).toContain('ciJobTraceUpdated');
    await stillSamePage();
    await session.snap('job-log-live', page);

    // the rest of the log, the artifacts and the result
    await appendLog(build, offset, snowman.subarray(cut));
    await log.getByText('built ☃ ok').waitFor();
    const archive = await zipOf({ 'out/report.txt': 'all good\n', 'out/html/index.html': '<p>report</p>\n', 'summary.txt': '2 of 2\n' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(archive)]), 'artifacts.zip');
    const uploaded = await fetch(`${base()}/api/v4/jobs/${build.id}/artifacts?artifact_format=zip&artifact_type=archive&expire_in=1+week`, { method: 'POST', headers: { 'JOB-TOKEN': build.token }, body: form });
    expect(uploaded.status).toBe(201);
    await report(build, 'success');
    await page.locator('[data-status="success"]').getByText('passed').waitFor();
    const box = page.getByRole('region', { name: 'Job artifacts' });
    await box.getByText(/These artifacts will be removed in \d+ days/).waitFor();
    await box.getByRole('button', { name: 'Keep' }).waitFor();
    expect(heard).toContain('ciJobStatusUpdated');
    await stillSamePage();
    await session.snap('job-finished', page);
  });

  it('browses the artifacts archive, downloads one file, and keeps the archive', async () => {
    const box = page.getByRole('region', { name: 'Job artifacts' });
    expect(await box.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/api/v4/projects/${project.id}/jobs/${build.id}/artifacts`);
    await box.getByRole('link', { name: 'Browse' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/jobs/${build.id}/artifacts/browse`);
    const table = page.getByRole('table', { name: 'Artifacts' });
    await table.getByRole('link', { name: 'out' }).click();
    await page.waitForURL((url) => url.pathname === `/${project.path_with_namespace}/-/jobs/${build.id}/artifacts/browse/out`);
    const file = table.getByRole('link', { name: 'report.txt', exact: true });
    await file.waitFor();
    await table.getByRole('link', { name: 'html' }).waitFor();
    const href = (await file.getAttribute('href'))!;
    expect(href).toBe(`/api/v4/projects/${project.id}/jobs/${build.id}/artifacts/out/report.txt`);
    await session.snap('artifacts-browser', page);
    const [download] = await Promise.all([page.waitForEvent('download'), table.getByRole('link', { name: 'Download report.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('report.txt');
    // back to the job: Keep makes the archive permanent
    await page.getByRole('link', { name: `Job #${build.id}` }).click();
    const box2 = page.getByRole('region', { name: 'Job artifacts' });
    await box2.getByRole('button', { name: 'Keep' }).click();
    await box2.getByText('These artifacts are kept: they do not expire.').waitFor();
  });

  it('the graph and the Failures tab follow the next job without a reload', async () => {
    await page.goto(`/${project.path_with_namespace}/-/pipelines/${pipelineId}`);
    const graph = page.getByRole('region', { name: 'Pipeline graph' });
    await graph.locator('[data-job="build"]').getByRole('img', { name: 'Status: passed' }).waitFor();
    await pendingJob('test');
    await graph.locator('[data-job="test"]').getByRole('img', { name: 'Status: pending' }).waitFor();
    await markNoReload();
    const test = await requestJob();
    expect(test.job_info.name).toBe('test');
    await graph.locator('[data-job="test"]').getByRole('img', { name: 'Status: running' }).waitFor();
    await session.snap('graph-running', page);
    await page.getByRole('link', { name: /Failures/ }).click();
    await appendLog(test, 0, '$ make test\n\u001b[31;1mFAIL: 1 test\u001b[0;m\n');
    await report(test, 'failed');
    const failures = page.getByRole('table', { name: 'Failed jobs' });
    await failures.getByRole('cell', { name: 'test' }).first().waitFor();
    await page.locator('[data-status="failed"]').first().waitFor();
    await stillSamePage();
    expect(heard).toContain('ciPipelineStatusUpdated');
    await session.snap('failures-live', page);
  });
});
