/**
 * Commit statuses from outside CI systems through @gitbeaker/rest (Commits.editStatus and
 * allStatuses): a status is a job in the `external` stage of the commit's pipeline, so the
 * pipeline's status follows it; GitLab's state machine errors, validations and who is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

describe(`commit statuses API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let sha: string;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('statuses');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser();
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    sha = (await fx.root.Commits.show(project.id, 'main')).id as string;
  });
  afterAll(() => fx?.close());

  it('creates an external pipeline for a commit without one, and the pipeline follows the status', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const pending = (await client.Commits.editStatus(project.id, sha, 'pending', { name: 'jenkins', targetUrl: 'https://ci.example.com/1', description: 'queued' })) as Record<string, any>;
    expect(Object.keys(pending)).toEqual(['id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'pipeline_id', 'author']);
    expect(pending).toMatchObject({ sha, ref: 'main', status: 'pending', name: 'jenkins', target_url: 'https://ci.example.com/1', description: 'queued', allow_failure: false, coverage: null, author: { username: developer.username } });
    const pipeline = (await client.Pipelines.show(project.id, pending.pipeline_id)) as Record<string, any>;
    expect(pipeline).toMatchObject({ source: 'external', status: 'pending', sha, ref: 'main' });

    // the same name by the same user updates the open status in place
    const running = (await client.Commits.editStatus(project.id, sha, 'running', { name: 'jenkins' })) as Record<string, any>;
    expect(running).toMatchObject({ id: pending.id, status: 'running', description: 'queued' });
    expect(((await client.Pipelines.show(project.id, pending.pipeline_id)) as Record<string, any>).status).toBe('running');

    const again = await fx.call('POST', `/projects/${project.id}/statuses/${sha}`, { token: developer.token, body: { state: 'running', name: 'jenkins' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' });

    const done = (await client.Commits.editStatus(project.id, sha, 'success', { name: 'jenkins', coverage: 87.5 })) as Record<string, any>;
    expect(done).toMatchObject({ id: pending.id, status: 'success', coverage: 87.5 });
    const finished = (await client.Pipelines.show(project.id, pending.pipeline_id)) as Record<string, any>;
    expect(finished).toMatchObject({ status: 'success', coverage: '87.50' });

    // a finished status is not reopened: a new one replaces it and the older becomes retried
    const failed = (await client.Commits.editStatus(project.id, sha, 'failed', { context: 'jenkins' })) as Record<string, any>;
    expect(failed.id).not.toBe(pending.id);
    expect(failed.status).toBe('failed');
    expect(((await client.Pipelines.show(project.id, pending.pipeline_id)) as Record<string, any>).status).toBe('failed');

    const latest = (await client.Commits.allStatuses(project.id, sha)) as Record<string, any>[];
    expect(latest.map((status) => [status.name, status.status])).toEqual([['jenkins', 'failed']]);
    const all = (await client.Commits.allStatuses(project.id, sha, { all: true })) as Record<string, any>[];
    expect(all.map((status) => status.status)).toEqual(['success', 'failed']);
    // a commit status is not a CI job: the jobs list leaves it out
    expect(await client.Jobs.all(project.id, { pipelineId: pending.pipeline_id })).toEqual([]);
  });

  it('joins the newest pipeline of the commit when it has one, in the external stage', async () => {
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', 'test:\n  script: make\n', 'Add CI');
    const head = (await fx.root.Commits.show(project.id, 'main')).id as string;
    const ci = await eventually(async () => ((await fx.root.Pipelines.all(project.id, { sha: head })) as Record<string, any>[])[0]);
    const status = (await gitbeakerClient(fx.server.url, developer.token).Commits.editStatus(project.id, head, 'success', { name: 'lint' })) as Record<string, any>;
    expect(status.pipeline_id).toBe(ci.id);
    const statuses = (await fx.root.Commits.allStatuses(project.id, head)) as Record<string, any>[];
    expect(statuses.map((s) => [s.name, s.status])).toEqual([
      ['test', 'pending'],
      ['lint', 'success'],
    ]);
    const stage = await fx.call('GET', `/projects/${project.id}/repository/commits/${head}/statuses?stage=external`);
    expect(stage.body.map((s: { name: string }) => s.name)).toEqual(['lint']);
    // the CI job still decides: a pending job beside a finished one is a running pipeline (GitLab's composite)
    expect(((await fx.root.Pipelines.show(project.id, ci.id)) as Record<string, any>).status).toBe('running');
  });

  it('answers GitLab’s errors and changes nothing', async () => {
    const post = (body: unknown, token = developer.token, at = sha) => fx.call('POST', `/projects/${project.id}/statuses/${at}`, { token, body });
    expect((await post({ state: 'bogus' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    const missing = await post({ state: 'success' }, developer.token, '0123456789012345678901234567890123456789');
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    const noPipeline = await post({ state: 'success', pipeline_id: 999999 });
    expect([noPipeline.status, noPipeline.body]).toEqual([404, { message: '404 Pipeline for pipeline_id, sha and ref Not Found' }]);
    const badUrl = await post({ state: 'success', target_url: 'javascript:alert(1)' });
    expect([badUrl.status, badUrl.body]).toEqual([400, { message: { target_url: ['must be a valid URL'] } }]);
    const long = await post({ state: 'success', description: 'x'.repeat(256) });
    expect([long.status, long.body]).toEqual([400, { message: { description: ['is too long (maximum is 255 characters)'] } }]);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${sha}/statuses?all=true`)).body).toHaveLength(2);
  });

  it('needs Developer to post, Reporter to read, and hides the project from strangers', async () => {
    const refused = await fx.call('POST', `/projects/${project.id}/statuses/${sha}`, { token: reporter.token, body: { state: 'success' } });
    expect(refused.status).toBe(403);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits/${sha}/statuses`, { token: reporter.token })).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/projects/${project.id}/statuses/${sha}`],
      ['GET', `/projects/${project.id}/repository/commits/${sha}/statuses`],
    ] as const) {
      const response = await fx.call(method, path, { token: stranger.token, body: method === 'POST' ? { state: 'success' } : undefined });
      expect(response.status).toBe(404);
    }
    expect((await fx.call('POST', `/projects/${project.id}/statuses/${sha}`, { token: null, body: { state: 'success' } })).status).toBe(401);
  });
});
