/**
 * Resource groups driven by real pipelines: jobs of one group run one at a time (the others wait
 * in `waiting_for_resource`), a completed job gives the resource back in its own transition and
 * the next waiting job takes it in the group's process mode; the resource groups API shows the
 * groups, the current and upcoming jobs, edits process_mode, and refuses strangers and Reporters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { pipelineFixtures, type PipelineFixtures } from '../../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

// only pipelines run through the API have the job: the pushes that create branches make none
const CONFIG = `deploy:
  script: ./deploy
  resource_group: production
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
`;

describe(`resource groups (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let ci: PipelineFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  const deployOf: Record<string, number> = {};

  const holder = async () =>
    (await fx.server.app.db.query<{ holder_job_id: number | null }>('SELECT holder_job_id FROM ci_resource_groups WHERE project_id = $1', [project.id])).rows[0]!.holder_job_id;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    ci = pipelineFixtures(fx);
    project = await fx.createProject('resource-groups');
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    await ci.commit(project.id, { '.gitlab-ci.yml': CONFIG });
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    for (const ref of ['main', 'one', 'two']) {
      if (ref !== 'main') await fx.root.Branches.create(project.id, ref, 'main');
      const created = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref } });
      expect(created.status).toBe(201);
      deployOf[ref] = (await ci.jobs(created.body.id)).deploy!.id;
    }
  });
  afterAll(() => fx?.close());

  it('runs one job of the group at a time; the others wait for the resource', async () => {
    const repo = fx.server.app.services.pipelinesRepository;
    expect((await repo.findJob(deployOf.main!))!.status).toBe('pending');
    expect((await repo.findJob(deployOf.one!))!.status).toBe('waiting_for_resource');
    expect((await repo.findJob(deployOf.two!))!.status).toBe('waiting_for_resource');
    expect(await holder()).toBe(deployOf.main);
    const pipeline = await fx.call('GET', `/projects/${project.id}/pipelines/${(await repo.findJob(deployOf.one!))!.pipeline_id}`, { token: developer.token });
    expect(pipeline.body.status).toBe('waiting_for_resource');
  });

  it('lists the groups, shows one, its current job and its upcoming jobs', async () => {
    const list = await fx.call('GET', `/projects/${project.id}/resource_groups`, { token: developer.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: expect.any(Number), key: 'production', process_mode: 'unordered', created_at: expect.any(String), updated_at: expect.any(String) }]);
    expect(list.headers.get('x-total')).toBe('1');
    const one = await fx.call('GET', `/projects/${project.id}/resource_groups/production`, { token: developer.token });
    expect(one.body).toMatchObject({ key: 'production', process_mode: 'unordered' });
    const current = await fx.call('GET', `/projects/${project.id}/resource_groups/production/current_job`, { token: developer.token });
    expect(current.body).toMatchObject({ id: deployOf.main, name: 'deploy', status: 'pending', pipeline: { ref: 'main' } });
    const upcoming = await fx.call('GET', `/projects/${project.id}/resource_groups/production/upcoming_jobs`, { token: developer.token });
    expect(upcoming.body.map((job: { id: number; status: string }) => [job.id, job.status])).toEqual([
      [deployOf.one, 'waiting_for_resource'],
      [deployOf.two, 'waiting_for_resource'],
    ]);
    expect(upcoming.body[0]).not.toHaveProperty('runner');
  });

  it('edits the process mode (newest_first) and answers 400 for an unknown one', async () => {
    const bad = await fx.call('PUT', `/projects/${project.id}/resource_groups/production`, { token: developer.token, body: { process_mode: 'random' } });
    expect(bad.status).toBe(400);
    const updated = await fx.call('PUT', `/projects/${project.id}/resource_groups/production`, { token: developer.token, body: { process_mode: 'newest_first' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ key: 'production', process_mode: 'newest_first' });
    const upcoming = await fx.call('GET', `/projects/${project.id}/resource_groups/production/upcoming_jobs`, { token: developer.token });
    expect(upcoming.body.map((job: { id: number }) => job.id)).toEqual([deployOf.two, deployOf.one]);
  });

  it('gives the resource back in the completing transition; the next job by process mode takes it', async () => {
    await ci.runJob(deployOf.main!, 'success');
    // released by the transition itself: the finished job holds nothing once recordJobResult returned
    expect(await holder()).not.toBe(deployOf.main);
    await eventually(async () => (await holder()) === deployOf.two, { what: 'the newest waiting job to take the resource' });
    const repo = fx.server.app.services.pipelinesRepository;
    expect((await repo.findJob(deployOf.two!))!.status).toBe('pending');
    expect((await repo.findJob(deployOf.one!))!.status).toBe('waiting_for_resource');
    await ci.runJob(deployOf.two!, 'failed');
    await eventually(async () => (await repo.findJob(deployOf.one!))!.status === 'pending', { what: 'the last waiting job to run' });
    expect(await holder()).toBe(deployOf.one);
  });

  it('refuses strangers (404), Reporters (403), anonymous callers (401) and unknown keys (404)', async () => {
    for (const path of ['', '/production', '/production/upcoming_jobs', '/production/current_job']) {
      expect((await fx.call('GET', `/projects/${project.id}/resource_groups${path}`, { token: stranger.token })).status).toBe(404);
      expect((await fx.call('GET', `/projects/${project.id}/resource_groups${path}`, { token: reporter.token })).status).toBe(403);
      expect((await fx.call('GET', `/projects/${project.id}/resource_groups${path}`, { token: null })).status).toBe(401);
    }
    expect((await fx.call('PUT', `/projects/${project.id}/resource_groups/production`, { token: reporter.token, body: { process_mode: 'oldest_first' } })).status).toBe(403);
    const unknown = await fx.call('GET', `/projects/${project.id}/resource_groups/staging`, { token: developer.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Not found' });
    expect((await fx.call('GET', `/projects/${project.id}/resource_groups/production`, { token: developer.token })).body.process_mode).toBe('newest_first');
  });
});
