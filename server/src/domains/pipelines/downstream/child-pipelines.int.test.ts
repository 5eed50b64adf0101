/**
 * Child pipelines driven end to end: a push creates the parent, its jobs run as a runner runs
 * them, and the trigger jobs create child pipelines through the queue — from a local file, a list
 * of files, and a job's artifact (a dynamic child pipeline) — with GitLab's source, variables,
 * `forward:`, `strategy: depend` and the links the bridges API shows; a great-grandchild is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { pipelineFixtures, type PipelineFixtures } from '../../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { PipelineRow } from '../pipeline.js';

const PARENT = `stages: [build, trigger]
variables:
  GLOBAL: g
generate:
  stage: build
  script: make
  artifacts:
    paths: [generated.yml]
depend-child:
  stage: trigger
  variables:
    PASSED: from-$GLOBAL
  trigger:
    include: child.yml
    strategy: depend
list-child:
  stage: trigger
  variables:
    PASSED: hidden
  trigger:
    include:
      - local: child.yml
      - local: extra.yml
    forward:
      yaml_variables: false
      pipeline_variables: true
dynamic-child:
  stage: trigger
  trigger:
    include:
      - artifact: generated.yml
        job: generate
`;
const CHILD = `child-job:
  script: echo $PASSED
`;
const EXTRA = `extra-job:
  script: echo extra
`;
const GENERATED = `generated-job:
  script: echo generated
nested:
  stage: deploy
  trigger:
    include: grandchild.yml
`;
const GRANDCHILD = `grandchild-job:
  script: echo deep
too-deep:
  stage: deploy
  trigger:
    include: child.yml
`;

describe(`child pipelines (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let ci: PipelineFixtures;
  let project: { id: number; path_with_namespace: string };
  let parent: PipelineRow;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    ci = pipelineFixtures(fx);
    ({ project, pipeline: parent } = await ci.createCiProject('parent-child', {
      '.gitlab-ci.yml': PARENT,
      'child.yml': CHILD,
      'extra.yml': EXTRA,
      'grandchild.yml': GRANDCHILD,
    }));
  });
  afterAll(() => fx?.close());

  it('creates the children once the trigger jobs become pending, with GitLab’s source, ref, commit and variables', async () => {
    expect(await ci.statuses(parent.id)).toMatchObject({ generate: 'pending', 'depend-child': 'created', 'list-child': 'created', 'dynamic-child': 'created' });
    const jobs = await ci.jobs(parent.id);
    await ci.runJob(jobs.generate!.id, 'success', { 'generated.yml': GENERATED });

    // without strategy the bridge succeeds once its child exists; with `depend` it runs with it
    await ci.statusesBecome(parent.id, { 'depend-child': 'running', 'list-child': 'success', 'dynamic-child': 'success' });
    const dependChild = await ci.downstreamOf(jobs['depend-child']!.id);
    expect(dependChild).toMatchObject({ project_id: project.id, source: 'parent_pipeline', ref: 'main', sha: parent.sha, status: 'pending' });
    expect(await ci.statuses(dependChild.id)).toEqual({ 'child-job': 'pending' });
    // yaml variables (job and global, expanded) go down by default; pipeline variables do not
    expect(await ci.variables(dependChild.id)).toEqual({ GLOBAL: 'g', PASSED: 'from-g' });

    const listChild = await ci.downstreamOf(jobs['list-child']!.id);
    expect(Object.keys(await ci.statuses(listChild.id)).sort()).toEqual(['child-job', 'extra-job']);
    expect(await ci.variables(listChild.id)).toEqual({});

    const dynamic = await ci.downstreamOf(jobs['dynamic-child']!.id);
    expect(await ci.statuses(dynamic.id)).toMatchObject({ 'generated-job': 'pending', nested: 'created' });
    expect((await ci.pipeline(parent.id)).status).toBe('running');
  });

  it('lists child pipelines only when asked for source parent_pipeline (GitLab’s pipelines list)', async () => {
    const all = (await fx.root.Pipelines.all(project.id)) as Record<string, any>[];
    expect(all.map((p) => p.source)).toEqual(['push']);
    const children = (await fx.root.Pipelines.all(project.id, { source: 'parent_pipeline' })) as Record<string, any>[];
    expect(children).toHaveLength(3);
    expect((await fx.root.Pipelines.all(project.id, { scope: 'branches' })).map((p) => p.id)).toEqual([parent.id]);
  });

  it('shows each bridge’s downstream_pipeline in the bridges API', async () => {
    const bridges = (await fx.root.Jobs.allPipelineBridges(project.id, parent.id)) as Record<string, any>[];
    const byName = Object.fromEntries(bridges.map((bridge) => [bridge.name, bridge]));
    const child = await ci.downstreamOf(byName['depend-child'].id);
    expect(byName['depend-child'].downstream_pipeline).toEqual({
      id: child.id,
      iid: child.iid,
      project_id: project.id,
      sha: parent.sha,
      ref: 'main',
      status: 'pending',
      source: 'parent_pipeline',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: `${fx.server.url}/${project.path_with_namespace}/-/pipelines/${child.id}`,
      name: null,
    });
  });

  it('a `depend` bridge follows its child to success, and the parent completes', async () => {
    const jobs = await ci.jobs(parent.id);
    const dependChild = await ci.downstreamOf(jobs['depend-child']!.id);
    await ci.runJob((await ci.jobs(dependChild.id))['child-job']!.id, 'success');
    await ci.statusesBecome(parent.id, { 'depend-child': 'success' });
    expect((await ci.pipeline(parent.id)).status).toBe('success');
  });

  it('a grandchild is created and a great-grandchild refused (two levels of children, as GitLab)', async () => {
    const jobs = await ci.jobs(parent.id);
    const dynamic = await ci.downstreamOf(jobs['dynamic-child']!.id);
    await ci.runJob((await ci.jobs(dynamic.id))['generated-job']!.id, 'success');
    await ci.statusesBecome(dynamic.id, { nested: 'success' });
    const grandchild = await ci.downstreamOf((await ci.jobs(dynamic.id)).nested!.id);
    await ci.statusesBecome(grandchild.id, { 'grandchild-job': 'pending' });
    await ci.runJob((await ci.jobs(grandchild.id))['grandchild-job']!.id, 'success');
    await ci.statusesBecome(grandchild.id, { 'too-deep': 'failed' });
    expect((await ci.jobs(grandchild.id))['too-deep']).toMatchObject({ failure_reason: 'reached_max_descendant_pipelines_depth' });
    const bridge = (await fx.root.Jobs.allPipelineBridges(project.id, grandchild.id)) as Record<string, any>[];
    expect(bridge[0]).toMatchObject({ name: 'too-deep', status: 'failed', failure_reason: 'reached_max_descendant_pipelines_depth', downstream_pipeline: null });
  });

  it('a depend bridge fails when its child fails and passes when the retried child passes; a child with a configuration error fails its bridge', async () => {
    const sha = await ci.commit(project.id, {
      '.gitlab-ci.yml': 'fails:\n  trigger:\n    include: child.yml\n    strategy: depend\nbroken:\n  trigger:\n    include: broken.yml\n',
      'broken.yml': 'job:\n  script: [\n',
    });
    const pipeline = await ci.pipelineOf(project.id, sha);
    const jobs = await ci.jobs(pipeline.id);
    await ci.statusesBecome(pipeline.id, { broken: 'failed', fails: 'running' });
    expect((await ci.jobs(pipeline.id)).broken!.failure_reason).toBe('downstream_pipeline_creation_failed');
    const brokenChild = await ci.downstreamOf(jobs.broken!.id);
    expect(brokenChild).toMatchObject({ status: 'failed', failure_reason: 'config_error', source: 'parent_pipeline' });
    const child = await ci.downstreamOf(jobs.fails!.id);
    await ci.runJob((await ci.jobs(child.id))['child-job']!.id, 'failed');
    await ci.statusesBecome(pipeline.id, { fails: 'failed' });
    expect((await ci.pipeline(pipeline.id)).status).toBe('failed');

    // retrying the child's job until it passes turns the bridge, and so the parent, to success (GitLab's bridge follows its child)
    const retried = await fx.server.app.services.pipelineEngine.retryJob((await ci.jobs(child.id))['child-job']!.id, null);
    await ci.statusesBecome(child.id, { 'child-job': 'pending' });
    await ci.runJob(retried.id, 'success');
    await ci.statusesBecome(pipeline.id, { fails: 'success' });
    expect((await ci.pipeline(child.id)).status).toBe('success');
    // `broken` still failed: the parent stays failed, its depend bridge passed
    expect((await ci.pipeline(pipeline.id)).status).toBe('failed');
  });

  it('canceling the parent cancels its child pipelines (GitLab cascades a cancel to children)', async () => {
    const sha = await ci.commit(project.id, { '.gitlab-ci.yml': 'child:\n  trigger:\n    include: child.yml\n    strategy: depend\n' });
    const pipeline = await ci.pipelineOf(project.id, sha);
    await ci.statusesBecome(pipeline.id, { child: 'running' });
    const child = await ci.downstreamOf((await ci.jobs(pipeline.id)).child!.id);
    await ci.statusesBecome(child.id, { 'child-job': 'pending' });
    const canceled = await fx.call('POST', `/projects/${project.id}/pipelines/${pipeline.id}/cancel`);
    expect(canceled.status).toBe(201);
    await ci.statusesBecome(child.id, { 'child-job': 'canceled' });
    expect((await ci.pipeline(child.id)).status).toBe('canceled');
    expect((await ci.pipeline(pipeline.id)).status).toBe('canceled');
  });
});
