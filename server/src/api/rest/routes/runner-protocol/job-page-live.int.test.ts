/**
 * What an open job page reads: the trace by byte offset (`Range: bytes=<n>-`, 206 with the
 * appended part or 416 with the size), the artifacts browser's listing
 * (`/:full_path/-/jobs/:id/artifacts/browse.json`), the job entity's artifacts fields and
 * "Keep"; and the GraphQL subscriptions that tell the page a job moved or its log grew. Who may
 * read: a stranger of a private project gets 404; with public_builds off a public project's jobs
 * are hidden from non-members.
 */
import { performance } from 'node:perf_hooks';
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { subscribe, wsClient, type SubscriptionProbe } from '../../../graphql/testing.js';
import { zipOf } from '../../../../test-support/zip.js';

const CONFIG = 'build:\n  script: [make]\n  artifacts:\n    paths: [out/]\n    expire_in: 1 week\n';
const JOB_STATUS = 'subscription ($jobId: CiBuildID!) { ciJobStatusUpdated(jobId: $jobId) { id status } }';
const JOB_TRACE = 'subscription ($jobId: CiBuildID!) { ciJobTraceUpdated(jobId: $jobId) { id status } }';
const PIPELINE_STATUS = 'subscription ($pipelineId: CiPipelineID!) { ciPipelineStatusUpdated(pipelineId: $pipelineId) { id iid status } }';
const PROJECT_PIPELINES = 'subscription ($projectId: ProjectID!) { ciPipelineStatusesUpdated(projectId: $projectId) { id status } }';

describe(`job page: live trace, artifacts browser, subscriptions (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  const clients: Client[] = [];

  const requestJob = async () => {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; token: string };
  };
  const appendLog = (job: { id: number; token: string }, start: number, text: string) =>
    fetch(`${fx.server.url}/api/v4/jobs/${job.id}/trace`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': `${start}-${start + Buffer.byteLength(text) - 1}` },
      body: text,
    });
  const traceFrom = (jobId: number, offset: number, token?: string | null) => fx.call('GET', `/projects/${project.id}/jobs/${jobId}/trace`, { token, headers: { Range: `bytes=${offset}-` } });
  const browse = async (jobId: number, path: string, token?: string | null) => {
    const headers: Record<string, string> = token === undefined ? { 'private-token': fx.server.root.token } : token === null ? {} : { 'private-token': token };
    const response = await fetch(`${fx.server.url}/${project.path_with_namespace}/-/jobs/${jobId}/artifacts/browse.json?path=${encodeURIComponent(path)}`, { headers });
    return { status: response.status, body: (await response.json()) as any };
  };
  const watch = (query: string, variables: Record<string, unknown>, token = fx.server.root.token): SubscriptionProbe<any> => {
    const client = wsClient(fx.server.url, { token });
    clients.push(client);
    return subscribe(client, query, variables);
  };
  /** Resolves once the probe hears `pipeline.changed` republished for the pipeline (the subscription is live). */
  const untilLive = async (probe: SubscriptionProbe<unknown>, pipelineId: number, jobIds: number[]) => {
    const started = performance.now();
    await eventually(async () => {
      if (probe.errors.length) throw new Error(`subscription failed: ${JSON.stringify(probe.errors)}`);
      await fx.server.app.events.publish('pipeline.changed', { pipelineId, projectId: project.id, jobIds });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return probe.messages.some((message) => message.at >= started);
    }, 10_000);
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('live-job', { visibility: 'public' });
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.dispose();
  });
  afterAll(() => fx?.close());

  it('tells open pages of every transition and log chunk, and reads the log by offset', async () => {
    const projectProbe = watch(PROJECT_PIPELINES, { projectId: `gid://gitlab/Project/${project.id}` });
    await eventually(async () => {
      if (projectProbe.errors.length) throw new Error(JSON.stringify(projectProbe.errors));
      await fx.server.app.events.publish('pipeline.changed', { pipelineId: 0, projectId: project.id, jobIds: [] });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return projectProbe.messages.length > 0;
    }, 10_000);
    const heard = projectProbe.messages.length;
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    // the push's pipeline reaches the project's list subscription
    const created = await eventually(async () => projectProbe.messages.slice(heard).find((message) => message.data?.ciPipelineStatusesUpdated?.status === 'PENDING'));
    const pipelineGid = created.data.ciPipelineStatusesUpdated.id as string;
    expect(pipelineGid).toMatch(/^gid:\/\/gitlab\/Ci::Pipeline\/\d+$/);
    const pipelineId = Number(pipelineGid.split('/').pop());
    const [pending] = (await fx.call<any[]>('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`)).body;
    const jobGid = `gid://gitlab/Ci::Build/${pending.id}`;

    const pipelineProbe = watch(PIPELINE_STATUS, { pipelineId: pipelineGid });
    const jobProbe = watch(JOB_STATUS, { jobId: jobGid });
    const traceProbe = watch(JOB_TRACE, { jobId: jobGid });
    await untilLive(pipelineProbe, pipelineId, [pending.id]);
    await untilLive(jobProbe, pipelineId, [pending.id]);

    // a runner takes the job: the job and its pipeline run, and both pages hear it
    const job = await requestJob();
    expect(job.id).toBe(pending.id);
    await eventually(async () => jobProbe.messages.find((message) => message.data?.ciJobStatusUpdated?.status === 'RUNNING'));
    await eventually(async () => pipelineProbe.messages.find((message) => message.data?.ciPipelineStatusUpdated?.status === 'RUNNING'));

    // the log: each chunk is announced, and read from the offset the page holds
    expect((await traceFrom(job.id, 0)).status).toBe(416);
    expect((await appendLog(job, 0, 'hello\n')).status).toBe(202);
    await eventually(async () => traceProbe.messages.length > 0 && traceProbe.messages[0]!.data?.ciJobTraceUpdated?.id === jobGid);
    const first = await traceFrom(job.id, 0);
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe('bytes 0-5/6');
    expect(first.raw.toString()).toBe('hello\n');
    const nothingNew = await traceFrom(job.id, 6);
    expect(nothingNew.status).toBe(416);
    expect(nothingNew.headers.get('content-range')).toBe('bytes */6');
    expect((await appendLog(job, 6, '\u001b[32mworld\u001b[0m\n')).status).toBe(202);
    await eventually(async () => traceProbe.messages.length > 1);
    const rest = await traceFrom(job.id, 6);
    expect(rest.status).toBe(206);
    expect(rest.raw.toString()).toBe('\u001b[32mworld\u001b[0m\n');
    // without a Range the whole log, as GitLab's trace endpoint answers
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/trace`)).raw.toString()).toBe('hello\n\u001b[32mworld\u001b[0m\n');

    // the job ends: success reaches the job page and the pipeline page
    const archive = await zipOf({ 'out/report.txt': 'all good\n', 'out/html/index.html': '<p>hi</p>', 'top.txt': 'x' });
    const form = new FormData();
    form.append('file', new Blob([archive]), 'artifacts.zip');
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${job.id}/artifacts?artifact_format=zip&artifact_type=archive&expire_in=1+week`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
    const finished = await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'success' }) });
    expect(finished.status).toBe(200);
    await eventually(async () => jobProbe.messages.find((message) => message.data?.ciJobStatusUpdated?.status === 'SUCCESS'));
    await eventually(async () => pipelineProbe.messages.find((message) => message.data?.ciPipelineStatusUpdated?.status === 'SUCCESS'));
  });

  it('refuses subscriptions to what the caller may not read', async () => {
    const [job] = (await fx.call<any[]>('GET', `/projects/${project.id}/jobs`)).body;
    const stranger = await fx.server.createUser();
    const privateProject = await fx.createProject('live-private');
    const own = watch(PROJECT_PIPELINES, { projectId: `gid://gitlab/Project/${privateProject.id}` }, stranger.token);
    const missing = watch(JOB_STATUS, { jobId: 'gid://gitlab/Ci::Build/999999' });
    await eventually(async () => own.errors.length > 0 || own.messages.some((message) => message.errors));
    await eventually(async () => missing.errors.length > 0 || missing.messages.some((message) => message.errors));
    // public_builds off: a non-member no longer hears the public project's jobs
    await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: false } });
    const hidden = watch(JOB_STATUS, { jobId: `gid://gitlab/Ci::Build/${job.id}` }, stranger.token);
    await eventually(async () => hidden.errors.length > 0 || hidden.messages.some((message) => message.errors));
    await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: true } });
  });

  it('lists the artifacts archive by directory, shows expiry and keeps it', async () => {
    const [job] = (await fx.call<any[]>('GET', `/projects/${project.id}/jobs`)).body;
    const shown = await fx.call<any>('GET', `/projects/${project.id}/jobs/${job.id}`);
    expect(shown.body.artifacts_file).toEqual({ filename: 'artifacts.zip', size: expect.any(Number) });
    expect(shown.body.artifacts).toEqual([{ file_type: 'archive', size: shown.body.artifacts_file.size, filename: 'artifacts.zip', file_format: 'zip' }]);
    expect(Date.parse(shown.body.artifacts_expire_at)).toBeGreaterThan(Date.now());

    const root = await browse(job.id, '');
    expect(root.status).toBe(200);
    expect(root.body.entries.map((entry: { name: string; type: string }) => `${entry.name}:${entry.type}`)).toEqual(['out:directory', 'top.txt:file']);
    expect(root.body.archive).toEqual({ filename: 'artifacts.zip', size: shown.body.artifacts_file.size, expire_at: shown.body.artifacts_expire_at });
    const out = await browse(job.id, 'out');
    expect(out.body.entries).toEqual([
      { name: 'html', path: 'out/html', type: 'directory', size: null },
      { name: 'report.txt', path: 'out/report.txt', type: 'file', size: 9 },
    ]);
    expect((await browse(job.id, 'nope')).status).toBe(404);
    expect((await browse(job.id, '../..')).status).toBe(404);
    expect((await browse(999999, '')).status).toBe(404);
    // a single file of the listing downloads through the jobs API
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/artifacts/out/report.txt`)).raw.toString()).toBe('all good\n');

    // who may read: anyone on a public project; with public_builds off neither guests nor strangers
    const stranger = await fx.server.createUser();
    expect((await browse(job.id, '', null)).status).toBe(200);
    await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: false } });
    const guest = await fx.member(project.id, 10);
    for (const token of [null, stranger.token, guest.token]) {
      // the page's listing is a 404 (GitLab's web controllers); the jobs API answers 403 for a visible project, as GitLab's does
      expect((await browse(job.id, '', token)).status).toBe(404);
      expect((await traceFrom(job.id, 0, token)).status).toBe(403);
    }
    const privateStranger = await fx.call('GET', `/projects/${(await fx.createProject('trace-private')).id}/jobs/${job.id}/trace`, { token: stranger.token, headers: { Range: 'bytes=0-' } });
    expect(privateStranger.status).toBe(404);
    const reporter = await fx.member(project.id, 20);
    expect((await browse(job.id, 'out', reporter.token)).status).toBe(200);
    await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: true } });

    // Keep: Developers; the archive no longer expires
    expect((await fx.call('POST', `/projects/${project.id}/jobs/${job.id}/artifacts/keep`, { token: reporter.token })).status).toBe(403);
    const privateProject = await fx.createProject('keep-private');
    expect((await fx.call('POST', `/projects/${privateProject.id}/jobs/${job.id}/artifacts/keep`, { token: stranger.token })).status).toBe(404);
    const developer = await fx.member(project.id, 30);
    const kept = await fx.call<any>('POST', `/projects/${project.id}/jobs/${job.id}/artifacts/keep`, { token: developer.token });
    expect(kept.status).toBe(200);
    expect(kept.body.artifacts_expire_at).toBeNull();
  });
});
