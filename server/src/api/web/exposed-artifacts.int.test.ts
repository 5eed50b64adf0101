/**
 * The merge widget's exposed artifacts (GitLab's `GET /:project/-/merge_requests/:iid/exposed_artifacts.json`):
 * jobs of the head pipeline with `artifacts:expose_as`, their archives uploaded through the runner
 * protocol, listed as `[{text, url, job_name, job_path}]` — a file's own link when one path is one
 * file, the artifacts browser otherwise — with an ETag that a poll sends back to get 304; 204 when
 * no job exposes anything; 404 for a stranger, a signed-out caller and a merge request that does
 * not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { zipOf } from '../../test-support/zip.js';

const CONFIG = `report:
  script: [make report]
  artifacts:
    expose_as: Coverage report
    paths: [coverage/index.html]
site:
  script: [make site]
  artifacts:
    expose_as: Review site
    paths: [public/, missing.txt]
absent:
  script: [make]
  artifacts:
    expose_as: Never uploaded
    paths: [nothing.txt]
plain:
  script: [make]
  artifacts:
    paths: [out/]
`;

describe(`merge request exposed artifacts (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let iid: number;
  const jobIds = new Map<string, number>();

  const exposed = (token: string | null = fx.server.root.token, headers: Record<string, string> = {}, path = project.path_with_namespace, mr = iid) =>
    fetch(`${fx.server.url}/${path}/-/merge_requests/${mr}/exposed_artifacts.json`, { headers: { ...(token ? { 'private-token': token } : {}), ...headers } });

  async function runJob(files: Record<string, string> | null) {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    expect(response.status).toBe(201);
    const job = (await response.json()) as { id: number; token: string; job_info: { name: string } };
    jobIds.set(job.job_info.name, job.id);
    if (files) {
      const form = new FormData();
      form.append('file', new Blob([await zipOf(files)]), 'artifacts.zip');
      expect((await fetch(`${fx.server.url}/api/v4/jobs/${job.id}/artifacts?artifact_format=zip&artifact_type=archive`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status).toBe(201);
    }
    const finished = await fetch(`${fx.server.url}/api/v4/jobs/${job.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': job.token }, body: JSON.stringify({ token: job.token, state: 'success' }) });
    expect(finished.status).toBe(200);
    return job;
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('exposed', { visibility: 'private' });
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
    await fx.root.RepositoryFiles.create(project.id, 'feature.txt', 'feature', 'feature\n', 'Add the feature', { startBranch: 'main' });
    iid = (await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Feature')).iid as number;
  });
  afterAll(() => fx?.close());

  it('answers 204 while the head pipeline has no job exposing artifacts', async () => {
    const response = await exposed();
    expect(response.status).toBe(204);
  });

  it('lists each exposing job with an uploaded path: the file itself for one file, the browser otherwise', async () => {
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'feature', CONFIG, 'Add CI');
    await eventually(async () => ((await fx.root.Jobs.all(project.id)) as unknown as unknown[]).length === 4);
    // job order: report, site, absent, plain
    await runJob({ 'coverage/index.html': '<p>95%</p>', 'coverage/app.css': '' });
    await runJob({ 'public/index.html': '<p>hi</p>', 'public/about.html': '<p>about</p>' });
    await runJob(null);
    await runJob({ 'out/a.txt': 'a' });

    const response = await exposed();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const base = `/${project.path_with_namespace}/-/jobs`;
    expect(await response.json()).toEqual([
      { text: 'Coverage report', url: `/api/v4/projects/${project.id}/jobs/${jobIds.get('report')}/artifacts/coverage/index.html`, job_name: 'report', job_path: `${base}/${jobIds.get('report')}` },
      { text: 'Review site', url: `${base}/${jobIds.get('site')}/artifacts/browse`, job_name: 'site', job_path: `${base}/${jobIds.get('site')}` },
    ]);
    // the file link downloads the file
    const file = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/jobs/${jobIds.get('report')}/artifacts/coverage/index.html`, { headers: { 'private-token': fx.server.root.token } });
    expect(await file.text()).toBe('<p>95%</p>');

    // a poll with the tag it holds: 304, nothing read again
    const unchanged = await exposed(fx.server.root.token, { 'if-none-match': etag! });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    // an old tag: the list again
    expect((await exposed(fx.server.root.token, { 'if-none-match': 'W/"old"' })).status).toBe(200);
  });

  it('changes its tag when the head pipeline changes', async () => {
    const before = (await exposed()).headers.get('etag');
    await fx.root.RepositoryFiles.edit(project.id, 'feature.txt', 'feature', 'feature 2\n', 'Change the feature');
    // (204 while the new head has no pipeline yet)
    const next = await eventually(async () => {
      const response = await exposed();
      return response.status === 200 && response.headers.get('etag') !== before ? response : undefined;
    });
    // the new pipeline's jobs have uploaded nothing yet
    expect(await next.json()).toEqual([]);
  });

  it('refuses a stranger, a signed-out caller and a missing merge request with 404', async () => {
    const stranger = await fx.server.createUser();
    expect((await exposed(stranger.token)).status).toBe(404);
    expect((await exposed(null)).status).toBe(404);
    expect((await exposed(fx.server.root.token, {}, project.path_with_namespace, 999)).status).toBe(404);
    const guest = await fx.member(project.id, 10);
    // a Guest of a private project may not read its pipelines
    expect((await exposed(guest.token)).status).toBe(404);
  });
});
