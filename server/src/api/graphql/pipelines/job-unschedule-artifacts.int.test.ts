/**
 * GitLab's `jobUnschedule` (GraphQL, and the web route the pipeline graph's time-out action
 * posts to) on a real delayed job, and a job's artifacts and log as GitLab's CiJob shows them
 * (`artifacts { nodes { downloadPath fileType name } }`, `trace { htmlSummary }`), each
 * downloadPath answering with the artifact's bytes. Strangers and too-low roles are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { pipelineFixtures, type PipelineFixtures } from '../../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import type { PipelineRow } from '../../../domains/pipelines/pipeline.js';
import { RESOURCE_NOT_AVAILABLE } from '../editor/errors.js';
import { graphql } from '../testing.js';

const CI = `build:
  script: make
  artifacts:
    paths: [out.txt]
rollout:
  when: delayed
  start_in: 1 hour
  script: deploy
later:
  when: delayed
  start_in: 2 hours
  script: deploy
review:
  script: deploy
  environment:
    name: review/app
    on_stop: stop_review
stop_review:
  script: stop
  when: manual
  environment:
    name: review/app
    action: stop
`;

const UNSCHEDULE = `mutation($id: CiBuildID!) { jobUnschedule(input: { id: $id, clientMutationId: "u1" }) { clientMutationId errors job { name status scheduled scheduledAt detailedStatus { action { icon title } } } } }`;
const JOB = `query($fullPath: ID!, $id: JobID!) {
  project(fullPath: $fullPath) {
    job(id: $id) {
      name status scheduled scheduledAt
      detailedStatus { label action { icon title path buttonTitle } }
      artifacts { count nodes { id downloadPath fileType name size expireAt } }
      trace { htmlSummary last: htmlSummary(lastLines: 1) }
      browseArtifactsPath playPath retryPath schedulingType exitCode createdByTag
    }
  }
}`;

describe(`GraphQL jobUnschedule, job artifacts and trace (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let ci: PipelineFixtures;
  let project: { id: number; path_with_namespace: string };
  let pipeline: PipelineRow;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  const ask = (query: string, variables: Record<string, unknown>, token: string = fx.server.root.token) => graphql(fx.server.url, query, variables, { token });
  const gid = (id: number) => `gid://gitlab/Ci::Build/${id}`;
  const jobOf = async (id: number, token?: string) => {
    const { body } = await ask(JOB, { fullPath: project.path_with_namespace, id: gid(id) }, token);
    expect(body.errors).toBeUndefined();
    return body.data.project?.job;
  };
  const post = (path: string, token: string | null) => fetch(`${fx.server.url}/${path}`, { method: 'POST', headers: token ? { 'private-token': token } : {} });
  const get = (path: string, token: string | null) => fetch(`${fx.server.url}/${path}`, { headers: token ? { 'private-token': token } : {} });

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    ci = pipelineFixtures(fx);
    ({ project, pipeline } = await ci.createCiProject('gql-unschedule', { '.gitlab-ci.yml': CI }));
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    const jobs = await ci.jobs(pipeline.id);
    await fx.server.app.services.jobLogs.append(jobs.build!.id, 0, Buffer.from('$ make\n\u001b[32;1mJob succeeded\u001b[0m\n'));
    await ci.runJob(jobs.build!.id, 'success', { 'out.txt': 'built\n' });
    await ci.statusesBecome(pipeline.id, { build: 'success', rollout: 'scheduled', later: 'scheduled' });
  });
  afterAll(() => fx?.close());

  it('shows a delayed job its time and GitLab’s Unschedule action', async () => {
    const { rollout } = await ci.jobs(pipeline.id);
    const job = await jobOf(rollout!.id, developer.token);
    expect(job).toMatchObject({ status: 'SCHEDULED', scheduled: true, detailedStatus: { action: { icon: 'time-out', title: 'Unschedule', buttonTitle: 'Unschedule job', path: `/${project.path_with_namespace}/-/jobs/${rollout!.id}/unschedule` } } });
    expect(Date.parse(job.scheduledAt)).toBeGreaterThan(Date.now());
    // a Reporter may not act on it: no action
    expect((await jobOf(rollout!.id, reporter.token)).detailedStatus.action).toBeNull();
  });

  it('offers GitLab’s Stop on a manual job that stops an environment, in GraphQL and REST alike', async () => {
    const { stop_review: stop } = await ci.jobs(pipeline.id);
    const expected = { icon: 'stop', title: 'Stop', buttonTitle: 'Stop this environment', path: `/${project.path_with_namespace}/-/jobs/${stop!.id}/play` };
    expect(await jobOf(stop!.id, developer.token)).toMatchObject({ status: 'MANUAL', detailedStatus: { label: 'manual stop action', action: expected } });
    const rest = await fx.call('GET', `/projects/${project.id}/jobs/${stop!.id}`, { token: developer.token });
    expect((rest.body as any).detailed_status).toMatchObject({ label: 'manual stop action', action: { icon: 'stop', title: 'Stop', button_title: 'Stop this environment', path: expected.path, method: 'post' } });
  });

  it('unschedules a delayed job: it becomes manual, its time cleared; a second try is refused in the payload', async () => {
    const { rollout } = await ci.jobs(pipeline.id);
    const done = await ask(UNSCHEDULE, { id: gid(rollout!.id) }, developer.token);
    expect(done.body.errors).toBeUndefined();
    expect(done.body.data.jobUnschedule).toEqual({ clientMutationId: 'u1', errors: [], job: { name: 'rollout', status: 'MANUAL', scheduled: false, scheduledAt: null, detailedStatus: { action: { icon: 'play', title: 'Run' } } } });
    expect((await ci.jobs(pipeline.id)).rollout).toMatchObject({ status: 'manual', scheduled_at: null });
    const again = await ask(UNSCHEDULE, { id: gid(rollout!.id) }, developer.token);
    expect(again.body.data.jobUnschedule).toEqual({ clientMutationId: 'u1', errors: ['Unprocessable entity'], job: null });
    // the job still runs when someone plays it
    const play = await ask(`mutation($id: CiProcessableID!) { jobPlay(input: { id: $id }) { errors job { status } } }`, { id: gid(rollout!.id) }, developer.token);
    expect(play.body.data.jobPlay).toEqual({ errors: [], job: { status: 'PENDING' } });
  });

  it('refuses strangers and Reporters like an unknown job, and changes nothing', async () => {
    const { later } = await ci.jobs(pipeline.id);
    for (const token of [stranger.token, reporter.token]) {
      const refused = await ask(UNSCHEDULE, { id: gid(later!.id) }, token);
      expect(refused.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
      expect(refused.body.data.jobUnschedule).toBeNull();
    }
    const unknown = await ask(UNSCHEDULE, { id: gid(999999) }, developer.token);
    expect(unknown.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
    expect((await ci.jobs(pipeline.id)).later!.status).toBe('scheduled');
  });

  it('unschedules through the web route the graph posts to: 404 for a stranger, 403 for a Reporter, 422 once manual', async () => {
    const { later } = await ci.jobs(pipeline.id);
    const path = `${project.path_with_namespace}/-/jobs/${later!.id}/unschedule`;
    expect((await post(path, stranger.token)).status).toBe(404);
    expect((await post(path, null)).status).toBe(404);
    expect((await post(path, reporter.token)).status).toBe(403);
    expect((await ci.jobs(pipeline.id)).later!.status).toBe('scheduled');
    expect((await post(`${project.path_with_namespace}/-/jobs/abc/unschedule`, developer.token)).status).toBe(404);
    const done = await post(path, developer.token);
    expect(done.status).toBe(200);
    expect((await ci.jobs(pipeline.id)).later!.status).toBe('manual');
    const again = await post(path, developer.token);
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ message: 'Unprocessable entity' });
  });

  it('lists a job’s artifacts with GitLab’s fields; each downloadPath answers with the artifact', async () => {
    const { build } = await ci.jobs(pipeline.id);
    const job = await jobOf(build!.id, reporter.token);
    expect(job.artifacts.count).toBe(1);
    const [archive] = job.artifacts.nodes;
    expect(archive).toMatchObject({ fileType: 'ARCHIVE', name: 'artifacts.zip', downloadPath: `/${project.path_with_namespace}/-/jobs/${build!.id}/artifacts/download?file_type=archive` });
    expect(archive.id).toMatch(/^gid:\/\/gitlab\/Ci::JobArtifact\/\d+$/);
    expect(Number(archive.size)).toBeGreaterThan(0);
    expect(job).toMatchObject({ browseArtifactsPath: `/${project.path_with_namespace}/-/jobs/${build!.id}/artifacts/browse`, retryPath: `/${project.path_with_namespace}/-/jobs/${build!.id}/retry`, schedulingType: 'stage', exitCode: 0, createdByTag: false });

    const download = await get(archive.downloadPath.slice(1), reporter.token);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('filename="artifacts.zip"');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(Number(archive.size));
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    // no artifact of that type, a stranger, the signed-out: 404
    expect((await get(`${project.path_with_namespace}/-/jobs/${build!.id}/artifacts/download?file_type=junit`, reporter.token)).status).toBe(404);
    expect((await get(archive.downloadPath.slice(1), stranger.token)).status).toBe(404);
    expect((await get(archive.downloadPath.slice(1), null)).status).toBe(404);
    // a stranger reads no job at all
    const hidden = await ask(JOB, { fullPath: project.path_with_namespace, id: gid(build!.id) }, stranger.token);
    expect(hidden.body.data.project).toBeNull();
  });

  it('shows a job’s log as GitLab’s htmlSummary, and no trace for a job without a log', async () => {
    const { build, later } = await ci.jobs(pipeline.id);
    const job = await jobOf(build!.id, reporter.token);
    expect(job.trace).toEqual({ htmlSummary: '<span>$ make</span><br/><span class="term-fg-green term-bold">Job succeeded</span>', last: '<span class="term-fg-green term-bold">Job succeeded</span>' });
    expect((await jobOf(later!.id, reporter.token)).trace).toBeNull();
  });
});
