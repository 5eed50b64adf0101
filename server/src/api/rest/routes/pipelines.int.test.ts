/**
 * The pipelines and jobs REST API through @gitbeaker/rest: GitLab's shapes, filters and
 * pagination headers, creation errors, retry/cancel/play/delete, and who is refused.
 */
import { CSRF_HEADER } from '@tributary/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../graphql/testing.js';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../test-support/server.js';

const CONFIG = `stages: [build, test, deploy]
build:
  stage: build
  script: make
test:
  stage: test
  script: make test
  needs: [build]
deploy:
  stage: deploy
  script: make deploy
  when: manual
  manual_confirmation: Deploy to production?
  allow_failure: false
`;

describe(`pipelines API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let owner: TestUser;
  let pushed: { id: number };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('ci-api');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    guest = await fx.member(project.id, 10);
    owner = await fx.member(project.id, 50);
    stranger = await fx.server.createUser();
    // The default branch is protected for Maintainers; Developers run pipelines on it once it is not.
    await fx.root.ProtectedBranches.remove(project.id, 'main');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    // the commit through the API is a push: its pipeline is created by the queue
    pushed = await eventually(async () => (await fx.root.Pipelines.all(project.id))[0] as { id: number } | undefined);
  });
  afterAll(() => fx?.close());

  it('lists pipelines with GitLab’s basic fields and pagination headers', async () => {
    const client = gitbeakerClient(fx.server.url, reporter.token);
    const list = await client.Pipelines.all(project.id);
    expect(list).toHaveLength(1);
    expect(Object.keys(list[0]!).sort()).toEqual(['created_at', 'id', 'iid', 'name', 'project_id', 'ref', 'sha', 'source', 'status', 'updated_at', 'web_url'].sort());
    expect(list[0]).toMatchObject({ id: pushed.id, iid: 1, project_id: project.id, ref: 'main', status: 'pending', source: 'push', web_url: `${fx.server.url}/${project.path_with_namespace}/-/pipelines/${pushed.id}` });
    const response = await fx.call('GET', `/projects/${project.id}/pipelines?per_page=1`, { token: reporter.token });
    expect(response.headers.get('x-total')).toBe('1');
    expect(response.headers.get('x-per-page')).toBe('1');
    expect(response.headers.get('link')).toContain('rel="first"');
    expect((await client.Pipelines.all(project.id, { status: 'success' })).length).toBe(0);
    expect((await client.Pipelines.all(project.id, { ref: 'main', scope: 'pending', source: 'push', username: 'root' })).length).toBe(1);
    const bad = await fx.call('GET', `/projects/${project.id}/pipelines?status=bogus`, { token: reporter.token });
    expect(bad.status).toBe(400);
  });

  it('shows one pipeline with detailed_status, and the latest of a ref', async () => {
    const client = gitbeakerClient(fx.server.url, reporter.token);
    const pipeline = (await client.Pipelines.show(project.id, pushed.id)) as Record<string, any>;
    expect(pipeline).toMatchObject({ id: pushed.id, tag: false, yaml_errors: null, user: { username: 'root' }, coverage: null, before_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(pipeline.detailed_status).toEqual({
      icon: 'status_pending',
      text: 'pending',
      label: 'pending',
      group: 'pending',
      tooltip: 'pending',
      has_details: true,
      details_path: `/${project.path_with_namespace}/-/pipelines/${pushed.id}`,
      illustration: null,
      favicon: '/assets/ci_favicons/favicon_status_pending.png',
    });
    const latest = (await client.Pipelines.showLatest(project.id, { ref: 'main' })) as Record<string, any>;
    expect(latest.id).toBe(pushed.id);
    expect((await fx.call('GET', `/projects/${project.id}/pipelines/${pushed.id + 1000}`, { token: reporter.token })).status).toBe(404);
  });

  it('lists the pipeline’s jobs with scope, and a job with its pipeline and commit', async () => {
    const client = gitbeakerClient(fx.server.url, reporter.token);
    const jobs = (await client.Jobs.all(project.id, { pipelineId: pushed.id })) as Record<string, any>[];
    expect(jobs.map((job) => [job.name, job.status])).toEqual([
      ['deploy', 'created'],
      ['test', 'created'],
      ['build', 'pending'],
    ]);
    const pending = (await client.Jobs.all(project.id, { pipelineId: pushed.id, scope: ['pending'] as never })) as Record<string, any>[];
    expect(pending.map((job) => job.name)).toEqual(['build']);
    const build = (await client.Jobs.show(project.id, pending[0]!.id)) as Record<string, any>;
    expect(build).toMatchObject({ name: 'build', stage: 'build', ref: 'main', tag: false, allow_failure: false, tag_list: [], pipeline: { id: pushed.id, status: 'pending' }, commit: { id: expect.any(String), title: 'Add CI' } });
    const projectJobs = await fx.call('GET', `/projects/${project.id}/jobs?scope[]=pending`, { token: reporter.token });
    expect(projectJobs.status).toBe(200);
    expect(projectJobs.body.map((job: { name: string }) => job.name)).toEqual(['build']);
    expect(projectJobs.headers.get('x-total')).toBeNull();
    const badScope = await fx.call('GET', `/projects/${project.id}/jobs?scope[]=bogus`, { token: reporter.token });
    expect(badScope.status).toBe(400);
    expect(badScope.body).toEqual({ message: 'Scope contains invalid value(s)' });
    expect(await client.Jobs.allPipelineBridges(project.id, pushed.id)).toEqual([]);
  });

  it('runs the pipeline through the engine, then plays, retries and cancels through the API', async () => {
    const engine = fx.server.app.services.pipelineEngine;
    const jobs = await fx.server.app.services.pipelinesRepository.latestJobs(pushed.id);
    const byName = (name: string) => jobs.find((job) => job.name === name)!;
    await engine.assignJob(byName('build').id, { runnerId: 1, tokenHash: 'api-build' });
    await engine.recordJobResult(byName('build').id, { status: 'success' });
    await engine.assignJob(byName('test').id, { runnerId: 1, tokenHash: 'api-test' });
    await engine.recordJobResult(byName('test').id, { status: 'failed', failureReason: 'script_failure', exitCode: 1 });
    const client = gitbeakerClient(fx.server.url, developer.token);
    const failed = (await client.Pipelines.show(project.id, pushed.id)) as Record<string, any>;
    expect(failed.status).toBe('failed');
    expect(failed.detailed_status).toMatchObject({ group: 'failed', text: 'failed' });
    const failedJob = (await client.Jobs.show(project.id, byName('test').id)) as Record<string, any>;
    expect(failedJob).toMatchObject({ status: 'failed', failure_reason: 'script_failure' });

    // a manual job that is not played yet cannot be retried; playing a failed on_success job is refused
    const unplayable = await fx.call('POST', `/projects/${project.id}/jobs/${byName('test').id}/play`, { token: developer.token });
    expect(unplayable.status).toBe(400);
    expect(unplayable.body).toEqual({ message: '400 Bad request - Unplayable Job' });
    const notRetryable = await fx.call('POST', `/projects/${project.id}/jobs/${byName('deploy').id}/retry`, { token: developer.token });
    expect(notRetryable.status).toBe(403);
    expect(notRetryable.body).toEqual({ message: '403 Forbidden - Job is not retryable' });

    const retried = (await client.Jobs.retry(project.id, byName('test').id)) as Record<string, any>;
    expect(retried).toMatchObject({ name: 'test', status: 'pending' });
    expect(retried.id).not.toBe(byName('test').id);
    const withRetried = (await client.Jobs.all(project.id, { pipelineId: pushed.id, includeRetried: true })) as Record<string, any>[];
    expect(withRetried.filter((job) => job.name === 'test')).toHaveLength(2);
    await engine.assignJob(retried.id, { runnerId: 1, tokenHash: 'api-test-2' });
    await engine.recordJobResult(retried.id, { status: 'success' });
    const blocked = (await client.Pipelines.show(project.id, pushed.id)) as Record<string, any>;
    expect(blocked.status).toBe('manual');
    expect(blocked.detailed_status).toMatchObject({ text: 'blocked', group: 'manual' });
    // the manual job's `manual_confirmation` is the text its play action asks to confirm
    const manual = (await client.Jobs.show(project.id, byName('deploy').id)) as Record<string, any>;
    expect(manual.detailed_status.action).toEqual({ icon: 'play', title: 'Run', path: `/${project.path_with_namespace}/-/jobs/${byName('deploy').id}/play`, method: 'post', button_title: 'Run job', confirmation_message: 'Deploy to production?' });

    const playResponse = await fx.call('POST', `/projects/${project.id}/jobs/${byName('deploy').id}/play`, {
      token: developer.token,
      body: { job_variables_attributes: [{ key: 'TARGET', value: 'production' }] },
    });
    expect(playResponse.status).toBe(200);
    expect(playResponse.body).toMatchObject({ name: 'deploy', status: 'pending', user: { username: developer.username } });
    const canceled = (await client.Jobs.cancel(project.id, byName('deploy').id)) as Record<string, any>;
    expect(canceled.status).toBe('canceled');
    const pipeline = (await client.Pipelines.show(project.id, pushed.id)) as Record<string, any>;
    expect(pipeline.status).toBe('canceled');
    // retrying the pipeline makes the canceled manual job manual again; a pipeline cancel leaves manual jobs
    const again = (await client.Pipelines.retry(project.id, pushed.id)) as Record<string, any>;
    expect(again.status).toBe('manual');
    const deploy = ((await client.Jobs.all(project.id, { pipelineId: pushed.id })) as Record<string, any>[]).find((job) => job.name === 'deploy')!;
    const replayed = (await client.Jobs.play(project.id, deploy.id)) as Record<string, any>;
    expect(replayed.status).toBe('pending');
    const stopped = (await client.Pipelines.cancel(project.id, pushed.id)) as Record<string, any>;
    expect(stopped.status).toBe('canceled');
  });

  it('creates a pipeline from a ref with variables, and answers GitLab’s 400s', async () => {
    const client = gitbeakerClient(fx.server.url, developer.token);
    const created = (await client.Pipelines.create(project.id, 'main', { variables: [{ key: 'DEPLOY_ENV', value: 'staging', variable_type: 'env_var' }] as never })) as Record<string, any>;
    expect(created).toMatchObject({ ref: 'main', source: 'api', status: 'pending', user: { username: developer.username } });
    // the web app's 'Run pipeline' (a cookie session) records GitLab's `web`
    const session = await signIn(fx.server.url, developer.username, developer.password);
    const fromWeb = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/pipeline`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, [CSRF_HEADER]: session.csrfToken },
      body: JSON.stringify({ ref: 'main' }),
    });
    expect(fromWeb.status).toBe(201);
    expect(await fromWeb.json()).toMatchObject({ source: 'web', user: { username: developer.username } });
    expect(await client.Pipelines.allVariables(project.id, created.id)).toEqual([{ variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'staging' }]);
    const missingRef = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'nope' } });
    expect(missingRef.status).toBe(400);
    expect(missingRef.body).toEqual({ message: { base: ['Reference not found'] } });
    await fx.root.Branches.create(project.id, 'no-ci', 'main');
    await fx.root.RepositoryFiles.remove(project.id, '.gitlab-ci.yml', 'no-ci', 'Drop CI');
    const noConfig = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'no-ci' } });
    expect(noConfig.status).toBe(400);
    expect(noConfig.body).toEqual({ message: { base: ['Missing CI config file'] } });
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'no-ci', 'job:\n  script: x\n  rules:\n    - if: $NEVER\n', 'Rules out everything');
    const noJobs = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'no-ci' } });
    expect(noJobs.status).toBe(400);
    expect(noJobs.body.message.base[0]).toMatch(/^Pipeline will not run for the selected trigger/);
    const invalid = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: {} });
    expect(invalid.status).toBe(400);
    const before = (await client.Pipelines.all(project.id)).length;
    await fx.root.RepositoryFiles.edit(project.id, '.gitlab-ci.yml', 'no-ci', 'job: [', 'Break it');
    const broken = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'no-ci' } });
    expect(broken.status).toBe(400);
    expect(broken.body.message.base.length).toBeGreaterThan(0);
    // the API keeps nothing for an invalid configuration (the push of that commit has its failed pipeline)
    const after = await eventually(async () => {
      const all = await client.Pipelines.all(project.id);
      return all.length > before ? all : null;
    });
    expect(after.filter((p) => p.source === 'api').length).toBe(1);
  });

  it('filters and orders the list as GitLab does', async () => {
    const client = gitbeakerClient(fx.server.url, reporter.token);
    const all = await client.Pipelines.all(project.id);
    expect(all.length).toBeGreaterThan(2);
    expect(all.map((p) => p.id)).toEqual([...all.map((p) => p.id)].sort((a, b) => b - a));
    const ascending = await client.Pipelines.all(project.id, { orderBy: 'id', sort: 'asc' });
    expect(ascending.map((p) => p.id)).toEqual([...all.map((p) => p.id)].reverse());
    // the newest pipeline of each branch
    const branches = await client.Pipelines.all(project.id, { scope: 'branches' });
    expect(new Set(branches.map((p) => p.ref)).size).toBe(branches.length);
    expect(branches.find((p) => p.ref === 'main')!.id).toBe(Math.max(...all.filter((p) => p.ref === 'main').map((p) => p.id)));
    expect(await client.Pipelines.all(project.id, { updatedAfter: new Date(Date.now() + 3_600_000).toISOString() })).toEqual([]);
    expect((await client.Pipelines.all(project.id, { source: 'api' })).every((p) => p.source === 'api')).toBe(true);
    expect(await client.Pipelines.all(project.id, { username: 'nobody-here' })).toEqual([]);
    const badOrder = await fx.call('GET', `/projects/${project.id}/pipelines?order_by=name`, { token: reporter.token });
    expect(badOrder.status).toBe(400);
  });

  it('lists trigger jobs as bridges, not as jobs', async () => {
    await fx.root.Branches.create(project.id, 'bridged', 'main');
    await fx.root.RepositoryFiles.edit(project.id, '.gitlab-ci.yml', 'bridged', 'build:\n  script: make\ndownstream:\n  trigger:\n    include: child.yml\n', 'Trigger a child');
    const client = gitbeakerClient(fx.server.url, developer.token);
    // the commit's push pipeline (a pipeline created before it would be auto-canceled by it)
    const sha = ((await fx.root.Branches.show(project.id, 'bridged')).commit as { id: string }).id;
    const created = await eventually(async () => (await client.Pipelines.all(project.id, { ref: 'bridged', sha }))[0] as Record<string, any> | undefined);
    // the trigger job creates its child; child.yml does not exist, so the child is a failed pipeline and the bridge fails
    const bridges = await eventually(async () => {
      const list = (await client.Jobs.allPipelineBridges(project.id, created.id)) as Record<string, any>[];
      return list[0]?.status === 'failed' ? list : null;
    });
    expect(bridges).toHaveLength(1);
    expect(bridges[0]).toMatchObject({ name: 'downstream', stage: 'test', failure_reason: 'downstream_pipeline_creation_failed', pipeline: { id: created.id } });
    const child = (await client.Pipelines.show(project.id, bridges[0]!.downstream_pipeline.id)) as Record<string, any>;
    expect(child).toMatchObject({ source: 'parent_pipeline', status: 'failed', yaml_errors: 'Local file `child.yml` does not exist!' });
    const jobs = (await client.Jobs.all(project.id, { pipelineId: created.id })) as Record<string, any>[];
    expect(jobs.map((job) => job.name)).toEqual(['build']);
  });

  it('refuses strangers and low roles: 404 for the unseen, 403 for the seen', async () => {
    const paths = [`/projects/${project.id}/pipelines`, `/projects/${project.id}/pipelines/${pushed.id}`, `/projects/${project.id}/pipelines/${pushed.id}/jobs`, `/projects/${project.id}/jobs`];
    for (const path of paths) {
      expect((await fx.call('GET', path, { token: stranger.token })).status, path).toBe(404);
      expect((await fx.call('GET', path, { token: null })).status, path).toBe(404);
      // GitLab: a Guest reads a private project's pipelines while 'Public pipelines' is on (the default)
      expect((await fx.call('GET', path, { token: guest.token })).status, path).toBe(200);
    }
    expect((await fx.call('PUT', `/projects/${project.id}`, { token: owner.token, body: { public_jobs: false } })).status).toBe(200);
    try {
      for (const path of paths) expect((await fx.call('GET', path, { token: guest.token })).status, path).toBe(403);
      expect((await fx.call('GET', paths[0]!, { token: reporter.token })).status).toBe(200);
    } finally {
      await fx.call('PUT', `/projects/${project.id}`, { token: owner.token, body: { public_jobs: true } });
    }
    const writes: [string, string][] = [
      ['POST', `/projects/${project.id}/pipeline?ref=main`],
      ['POST', `/projects/${project.id}/pipelines/${pushed.id}/retry`],
      ['POST', `/projects/${project.id}/pipelines/${pushed.id}/cancel`],
    ];
    for (const [method, path] of writes) {
      expect((await fx.call(method, path, { token: stranger.token })).status, path).toBe(404);
      expect((await fx.call(method, path, { token: guest.token })).status, path).toBe(403);
      expect((await fx.call(method, path, { token: reporter.token })).status, path).toBe(403);
    }
    // GitLab's read_pipeline_variable: Maintainers, and a Developer for the pipelines they triggered only
    const variables = `/projects/${project.id}/pipelines/${pushed.id}/variables`;
    expect((await fx.call('GET', variables, { token: reporter.token })).status).toBe(403);
    expect((await fx.call('GET', variables, { token: developer.token })).status).toBe(403);
    expect((await fx.call('GET', variables, { token: stranger.token })).status).toBe(404);
    const maintainer = await fx.member(project.id, 40);
    expect((await fx.call('GET', variables, { token: maintainer.token })).status).toBe(200);
    expect((await fx.call('DELETE', `/projects/${project.id}/pipelines/${pushed.id}`, { token: developer.token })).status).toBe(403);
    expect((await fx.call('DELETE', `/projects/${project.id}/pipelines/${pushed.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('refuses a Developer on a branch protected from them, and lets the Owner delete', async () => {
    await fx.root.ProtectedBranches.create(project.id, 'main', { pushAccessLevel: 40, mergeAccessLevel: 40 });
    const created = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: developer.token, body: { ref: 'main' } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: { base: ["You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance."] } });
    expect((await fx.call('POST', `/projects/${project.id}/pipelines/${pushed.id}/retry`, { token: developer.token })).status).toBe(403);
    const deleted = await fx.call('DELETE', `/projects/${project.id}/pipelines/${pushed.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await fx.call('GET', `/projects/${project.id}/pipelines/${pushed.id}`, { token: owner.token })).status).toBe(404);
  });
});
