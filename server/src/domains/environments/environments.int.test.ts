/**
 * Environments and deployments from a pushed `.gitlab-ci.yml`, driven through the engine's
 * runner-facing methods (assignJob, recordJobResult), and the environments and deployments
 * REST APIs through @gitbeaker/rest: creation, transitions in the job's transaction, stop
 * through on_stop, auto stop, the API's writes and who is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../test-support/server.js';
import type { JobRow } from '../pipelines/pipeline.js';
import { environmentSlug } from './environment-rules.js';

const CONFIG = `stages: [deploy, cleanup]
deploy_review:
  stage: deploy
  script: deploy
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_ENVIRONMENT_SLUG.example.com
    on_stop: stop_review
    auto_stop_in: 1 week
stop_review:
  stage: cleanup
  script: stop
  when: manual
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    action: stop
deploy_prod:
  stage: deploy
  script: deploy
  environment:
    name: production
    url: https://example.com
  allow_failure: true
check:
  stage: deploy
  script: check
  environment: { name: production, action: prepare }
`;

describe(`environments and deployments (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let pipelineId: number;
  const services = () => fx.server.app.services;
  const jobsOf = async (id: number) => Object.fromEntries((await services().pipelinesRepository.latestJobs(id)).map((job) => [job.name, job])) as Record<string, JobRow>;
  const run = async (job: JobRow, status: 'success' | 'failed', token: string) => {
    await services().pipelineEngine.assignJob(job.id, { runnerId: 1, tokenHash: token });
    await services().pipelineEngine.recordJobResult(job.id, { status });
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('envs');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    guest = await fx.member(project.id, 10);
    stranger = await fx.server.createUser();
    // The default branch is protected for Maintainers; Developers deploy it once it is not.
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    pipelineId = (await eventually(async () => (await fx.root.Pipelines.all(project.id))[0] as { id: number } | undefined)).id;
  });
  afterAll(() => fx?.close());

  it('creates the environments and `created` deployments with the pipeline (no deployment for prepare)', async () => {
    const client = gitbeakerClient(fx.server.url, reporter.token);
    const environments = (await client.Environments.all(project.id)) as Record<string, any>[];
    const slug = environmentSlug('review/main');
    expect(slug).toMatch(/^review-main-[a-z0-9]{6}$/);
    expect(environments.map((e) => [e.name, e.slug, e.external_url, e.state, e.tier])).toEqual([
      ['review/main', slug, `https://${slug}.example.com`, 'available', 'development'],
      ['production', 'production', 'https://example.com', 'available', 'production'],
    ]);
    expect(environments[0]).toMatchObject({ auto_stop_at: null, last_deployment: null });
    const deployments = (await client.Deployments.all(project.id)) as Record<string, any>[];
    expect(deployments.map((d) => [d.iid, d.status, d.environment.name, d.deployable.name, d.ref])).toEqual([
      [1, 'created', 'review/main', 'deploy_review', 'main'],
      [2, 'created', 'production', 'deploy_prod', 'main'],
    ]);
    expect(Object.keys(deployments[0]!).sort()).toEqual(['created_at', 'deployable', 'environment', 'id', 'iid', 'ref', 'sha', 'status', 'updated_at', 'user'].sort());
    expect(deployments[0]!.user).toMatchObject({ username: 'root' });
  });

  it('moves a deployment with its job: running, then success sets auto_stop_at and enqueues the auto stop', async () => {
    const jobs = await jobsOf(pipelineId);
    await services().pipelineEngine.assignJob(jobs.deploy_review!.id, { runnerId: 1, tokenHash: 'env-review' });
    const client = gitbeakerClient(fx.server.url, reporter.token);
    expect(((await client.Deployments.all(project.id, { environment: 'review/main' })) as Record<string, any>[])[0]!.status).toBe('running');
    await services().pipelineEngine.recordJobResult(jobs.deploy_review!.id, { status: 'success' });
    await run(jobs.deploy_prod!, 'failed', 'env-prod');
    await run(jobs.check!, 'success', 'env-check');
    expect((await jobsOf(pipelineId)).stop_review!.status).toBe('manual');
    const statuses = ((await client.Deployments.all(project.id, { orderBy: 'iid', sort: 'desc' })) as Record<string, any>[]).map((d) => [d.iid, d.status]);
    expect(statuses).toEqual([
      [2, 'failed'],
      [1, 'success'],
    ]);
    expect(((await client.Deployments.all(project.id, { status: 'success' })) as unknown[]).length).toBe(1);
    const review = ((await client.Environments.all(project.id, { name: 'review/main' })) as Record<string, any>[])[0]!;
    expect(review.last_deployment).toMatchObject({ iid: 1, status: 'success', deployable: { name: 'deploy_review', status: 'success' } });
    const week = Date.now() + 7 * 24 * 3600 * 1000;
    expect(Math.abs(new Date(review.auto_stop_at).getTime() - week)).toBeLessThan(3600 * 1000);
    const { rows } = await fx.server.app.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM background_jobs WHERE queue = 'environments.auto_stop' AND state <> 'done'`);
    expect(rows[0]!.count).toBe(1);
    // the failed production deployment is not its last_deployment
    const production = ((await client.Environments.all(project.id, { search: 'prod' })) as Record<string, any>[])[0]!;
    expect(production.last_deployment).toBeNull();
  });

  it('auto stops a due environment by running its on_stop job; the job’s success stops it', async () => {
    const review = (await services().environmentsRepository.findByName(project.id, 'review/main'))!;
    // not due yet: nothing happens
    await services().environments.autoStop(review.id);
    expect((await services().environmentsRepository.findById(review.id))!.state).toBe('available');
    await services().environmentsRepository.update(review.id, { auto_stop_at: new Date(Date.now() - 1000) });
    await services().environments.autoStop(review.id);
    expect((await services().environmentsRepository.findById(review.id))!.state).toBe('stopping');
    const stopJob = (await jobsOf(pipelineId)).stop_review!;
    expect(stopJob.status).toBe('pending');
    await run(stopJob, 'success', 'env-stop');
    const stopped = (await gitbeakerClient(fx.server.url, reporter.token).Environments.show(project.id, review.id)) as Record<string, any>;
    expect(stopped).toMatchObject({ state: 'stopped', auto_stop_at: null });
  });

  it('stops through the API (no on_stop job: stopped at once), deletes only stopped environments', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const production = (await services().environmentsRepository.findByName(project.id, 'production'))!;
    const refused = await fx.call('DELETE', `/projects/${project.id}/environments/${production.id}`, { token: developer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    const stopped = (await client.Environments.stop(project.id, production.id)) as Record<string, any>;
    expect(stopped).toMatchObject({ id: production.id, state: 'stopped' });
    expect(((await client.Environments.all(project.id, { states: 'stopped' })) as unknown[]).length).toBe(2);
    await client.Environments.remove(project.id, production.id);
    expect((await fx.call('GET', `/projects/${project.id}/environments/${production.id}`, { token: developer.token })).status).toBe(404);
  });

  it('creates and edits environments, refusing duplicates and bad input', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const created = (await client.Environments.create(project.id, 'staging', { externalUrl: 'https://staging.example.com' })) as Record<string, any>;
    expect(created).toMatchObject({ name: 'staging', slug: 'staging', tier: 'staging', state: 'available', external_url: 'https://staging.example.com' });
    const duplicate = await fx.call('POST', `/projects/${project.id}/environments`, { token: developer.token, body: { name: 'staging' } });
    expect(duplicate.status).toBe(400);
    expect((duplicate.body as { message: Record<string, string[]> }).message.name).toEqual(['has already been taken']);
    for (const body of [{ name: 'bad*name' }, { name: 'ok', external_url: 'javascript:alert(1)' }, { name: 'ok', tier: 'moon' }]) {
      expect((await fx.call('POST', `/projects/${project.id}/environments`, { token: developer.token, body })).status).toBe(400);
    }
    expect(((await client.Environments.all(project.id, { name: 'ok' })) as unknown[]).length).toBe(0);
    const edited = (await client.Environments.edit(project.id, created.id, { externalUrl: 'https://new.example.com', tier: 'production' })) as Record<string, any>;
    expect(edited).toMatchObject({ external_url: 'https://new.example.com', tier: 'production' });
    expect((await fx.call('GET', `/projects/${project.id}/environments?search=st`, { token: developer.token })).status).toBe(400);
  });

  it('writes deployments from outside CI and refuses to update a CI deployment', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const sha = (await fx.root.Commits.show(project.id, 'main')).id as string;
    const created = (await client.Deployments.create(project.id, 'external', sha, 'main', false, { status: 'running' })) as Record<string, any>;
    expect(created).toMatchObject({ iid: 3, status: 'running', sha, ref: 'main', environment: { name: 'external' }, deployable: null, user: { username: developer.username } });
    const done = (await client.Deployments.edit(project.id, created.id, 'success')) as Record<string, any>;
    expect(done.status).toBe('success');
    expect((await client.Deployments.show(project.id, created.id)) as Record<string, any>).toMatchObject({ status: 'success' });
    expect(await client.Deployments.allMergeRequests(project.id, created.id)).toEqual([]);
    const ci = ((await client.Deployments.all(project.id, { environment: 'review/main' })) as Record<string, any>[])[0]!;
    const refused = await fx.call('PUT', `/projects/${project.id}/deployments/${ci.id}`, { token: developer.token, body: { status: 'success' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API' });
    expect((await fx.call('POST', `/projects/${project.id}/deployments`, { token: developer.token, body: { environment: 'x', sha, ref: 'main', tag: false, status: 'bogus' } })).status).toBe(400);
    const noRef = await fx.call('POST', `/projects/${project.id}/deployments`, { token: developer.token, body: { environment: 'x', sha, ref: 'nowhere', tag: false, status: 'running' } });
    expect(noRef.status).toBe(400);
    expect(noRef.body).toEqual({ message: { ref: ['The branch or tag does not exist'] } });
    expect(((await client.Environments.all(project.id, { name: 'x' })) as unknown[]).length).toBe(0);
  });

  it('refuses a stranger (404) and a Guest (403) on a private project; a Reporter only reads', async () => {
    const env = (await services().environmentsRepository.findByName(project.id, 'staging'))!;
    for (const path of [`/projects/${project.id}/environments`, `/projects/${project.id}/environments/${env.id}`, `/projects/${project.id}/deployments`]) {
      expect((await fx.call('GET', path, { token: stranger.token })).status).toBe(404);
      expect((await fx.call('GET', path, { token: guest.token })).status).toBe(403);
    }
    expect((await fx.call('GET', `/projects/${project.id}/environments`, { token: null })).status).toBe(404);
    for (const [method, path, body] of [
      ['POST', `/projects/${project.id}/environments`, { name: 'nope' }],
      ['PUT', `/projects/${project.id}/environments/${env.id}`, { external_url: 'https://x.example.com' }],
      ['POST', `/projects/${project.id}/environments/${env.id}/stop`, {}],
      ['DELETE', `/projects/${project.id}/environments/${env.id}`, undefined],
      ['POST', `/projects/${project.id}/deployments`, { environment: 'x', sha: 'a'.repeat(40), ref: 'main', tag: false, status: 'running' }],
    ] as const) {
      expect((await fx.call(method, path, { token: stranger.token, body })).status).toBe(404);
      expect((await fx.call(method, path, { token: guest.token, body })).status).toBe(403);
      expect((await fx.call(method, path, { token: reporter.token, body })).status).toBe(403);
    }
    expect((await services().environmentsRepository.findById(env.id))!.state).toBe('available');
  });

  it('stops stale environments and lists stopped review apps in a dry run', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const tooRecent = await fx.call('POST', `/projects/${project.id}/environments/stop_stale`, { token: developer.token, body: { before: new Date().toISOString() } });
    expect(tooRecent.status).toBe(400);
    expect(await client.Environments.stopStale(project.id, new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString())).toEqual({ message: 'Successfully requested stop for all stale environments' });
    const dry = await client.Environments.removeReviewApps(project.id, { before: new Date(Date.now() + 1000).toISOString() });
    expect(dry.scheduled_entries.map((e) => e.name)).toEqual(['review/main']);
    expect(((await client.Environments.all(project.id, { name: 'review/main' })) as unknown[]).length).toBe(1);
  });

  it('refuses to stop through an on_stop job on a ref the caller may not update; a Maintainer stops', async () => {
    await fx.root.RepositoryFiles.create(project.id, 'again.txt', 'main', 'again', 'Deploy again');
    const second = await eventually(async () => ((await fx.root.Pipelines.all(project.id)) as { id: number }[]).find((p) => p.id !== pipelineId));
    const jobs = await jobsOf(second.id);
    await run(jobs.deploy_review!, 'success', 'env-review-2');
    await run(jobs.deploy_prod!, 'success', 'env-prod-2');
    await run(jobs.check!, 'success', 'env-check-2');
    const review = (await services().environmentsRepository.findByName(project.id, 'review/main'))!;
    expect(review.state).toBe('available');
    await fx.root.ProtectedBranches.protect(project.id, 'main', { pushAccessLevel: 40, mergeAccessLevel: 40 });
    const refused = await fx.call('POST', `/projects/${project.id}/environments/${review.id}/stop`, { token: developer.token });
    expect(refused.status).toBe(403);
    expect((await services().environmentsRepository.findById(review.id))!.state).toBe('available');
    expect((await jobsOf(second.id)).stop_review!.status).toBe('manual');
    const stopping = (await fx.root.Environments.stop(project.id, review.id)) as Record<string, any>;
    expect(stopping.state).toBe('stopping');
    expect((await jobsOf(second.id)).stop_review!.status).toBe('pending');
  });
});
