/**
 * Multi-project downstream pipelines driven end to end: pipelines run by different users through
 * the API trigger a pipeline of another project on a `branch:`; GitLab's permission rule (the
 * user who runs the upstream pipeline must be able to run a pipeline on the downstream ref) fails
 * the bridge with `downstream_bridge_project_not_found` or `insufficient_bridge_permissions`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { pipelineFixtures, type PipelineFixtures } from '../../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

describe(`multi-project pipelines (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let ci: PipelineFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let downstream: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let outsider: TestUser;
  let reporterDownstream: TestUser;

  /** A pipeline of the upstream project run by `user` through the API; its bridge once it has ended or is running. */
  async function runAs(user: TestUser) {
    const response = await fx.call('POST', `/projects/${upstream.id}/pipeline`, { token: user.token, body: { ref: 'main', variables: [{ key: 'FROM_API', value: 'api' }] } });
    expect(response.status).toBe(201);
    const pipelineId = response.body.id as number;
    const bridge = await eventually(async () => {
      const job = (await ci.jobs(pipelineId)).downstream!;
      return ['running', 'success', 'failed'].includes(job.status) ? job : null;
    });
    return { pipelineId, bridge };
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    ci = pipelineFixtures(fx);
    ({ project: downstream } = await ci.createCiProject('downstream', { '.gitlab-ci.yml': 'down-job:\n  script: echo $UP\n' }));
    await fx.root.Branches.create(downstream.id, 'stable', 'main');
    ({ project: upstream } = await ci.createCiProject('upstream', {
      '.gitlab-ci.yml': `variables:
  TARGET: ${downstream.path_with_namespace}
downstream:
  variables:
    UP: from-upstream
  trigger:
    project: $TARGET
    branch: stable
    strategy: depend
    forward:
      pipeline_variables: true
`,
    }));
    developer = await fx.member(upstream.id, 30);
    await fx.root.ProjectMembers.add(downstream.id, 30, { userId: developer.id });
    outsider = await fx.member(upstream.id, 30);
    reporterDownstream = await fx.member(upstream.id, 30);
    await fx.root.ProjectMembers.add(downstream.id, 20, { userId: reporterDownstream.id });
  });
  afterAll(() => fx?.close());

  it('creates the downstream pipeline on `branch` with source `pipeline` and the variables passed down', async () => {
    const { pipelineId, bridge } = await runAs(developer);
    expect(bridge.status).toBe('running');
    const down = await ci.downstreamOf(bridge.id);
    expect(down).toMatchObject({ project_id: downstream.id, source: 'pipeline', ref: 'stable', status: 'pending', user_id: developer.id });
    expect(await ci.variables(down.id)).toEqual({ TARGET: downstream.path_with_namespace, UP: 'from-upstream', FROM_API: 'api' });
    const bridges = (await fx.root.Jobs.allPipelineBridges(upstream.id, pipelineId)) as Record<string, any>[];
    expect(bridges[0]!.downstream_pipeline).toMatchObject({ id: down.id, project_id: downstream.id, web_url: `${fx.server.url}/${downstream.path_with_namespace}/-/pipelines/${down.id}` });
    // the pipeline page's JSON (GitLab's triggered / triggered_by), for someone who sees both projects
    const json = async (path: string, token: string) => {
      const response = await fetch(`${fx.server.url}/${path}`, { headers: { 'private-token': token } });
      return { status: response.status, body: response.status === 200 ? await response.json() : null };
    };
    const upJson = await json(`${upstream.path_with_namespace}/-/pipelines/${pipelineId}.json`, developer.token);
    expect(upJson.status).toBe(200);
    expect(upJson.body).toMatchObject({ id: pipelineId, triggered_by: null, triggered: [{ id: down.id, source: 'pipeline', active: true, path: `/${downstream.path_with_namespace}/-/pipelines/${down.id}`, details: { status: { group: 'pending' } }, project: { id: downstream.id, full_path: downstream.path_with_namespace }, source_job: { name: 'downstream' } }] });
    const downJson = await json(`${downstream.path_with_namespace}/-/pipelines/${down.id}.json`, developer.token);
    expect(downJson.body).toMatchObject({ id: down.id, triggered: [], triggered_by: { id: pipelineId, project: { full_path: upstream.path_with_namespace }, source_job: { name: 'downstream' } } });
    // a Developer of the upstream project only does not see the downstream pipeline; a stranger sees nothing
    expect((await json(`${upstream.path_with_namespace}/-/pipelines/${pipelineId}.json`, outsider.token)).body).toMatchObject({ id: pipelineId, triggered: [] });
    const stranger = await fx.server.createUser();
    expect((await json(`${upstream.path_with_namespace}/-/pipelines/${pipelineId}.json`, stranger.token)).status).toBe(404);

    // strategy: depend — the bridge and the upstream pipeline follow the downstream one
    await ci.runJob((await ci.jobs(down.id))['down-job']!.id, 'success');
    await ci.statusesBecome(pipelineId, { downstream: 'success' });
    expect((await ci.pipeline(pipelineId)).status).toBe('success');
  });

  it('fails the bridge with downstream_bridge_project_not_found for a user who cannot see the project', async () => {
    const { bridge } = await runAs(outsider);
    expect(bridge).toMatchObject({ status: 'failed', failure_reason: 'downstream_bridge_project_not_found' });
    expect(await fx.server.app.services.downstreamRepository.downstreamOfBridge(bridge.id)).toBeNull();
  });

  it('fails the bridge with insufficient_bridge_permissions for a Reporter of the downstream project', async () => {
    const { bridge } = await runAs(reporterDownstream);
    expect(bridge).toMatchObject({ status: 'failed', failure_reason: 'insufficient_bridge_permissions' });
    const shown = (await fx.root.Jobs.show(upstream.id, bridge.id)) as Record<string, any>;
    expect(shown).toMatchObject({ status: 'failed', failure_reason: 'insufficient_bridge_permissions', downstream_pipeline: null });
  });

  it('fails the bridge with insufficient_bridge_permissions when the downstream branch is protected from the user', async () => {
    await fx.root.ProtectedBranches.protect(downstream.id, 'stable', { pushAccessLevel: 40, mergeAccessLevel: 40 });
    const { bridge } = await runAs(developer);
    expect(bridge).toMatchObject({ status: 'failed', failure_reason: 'insufficient_bridge_permissions' });
    await fx.root.ProtectedBranches.unprotect(downstream.id, 'stable');
  });

  it('refuses a multi-project trigger of the project itself (invalid_bridge_trigger)', async () => {
    const sha = await ci.commit(upstream.id, { '.gitlab-ci.yml': `itself:\n  trigger:\n    project: ${upstream.path_with_namespace}\n` });
    const pipeline = await ci.pipelineOf(upstream.id, sha);
    await ci.statusesBecome(pipeline.id, { itself: 'failed' });
    expect((await ci.jobs(pipeline.id)).itself!.failure_reason).toBe('invalid_bridge_trigger');
  });
});
