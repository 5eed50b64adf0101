/**
 * GitLab's pipeline and job fields and mutations over /api/graphql, on a real pipeline: stages,
 * parallel jobs (one group), `needs`, a manual job and a bridge with its child pipeline. GitLab's
 * pipeline graph query runs as its page sends it; strangers and Guests without public pipelines
 * get null; mutations move jobs through the pipelines service; answers are never stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { pipelineFixtures, type PipelineFixtures } from '../../../test-support/pipeline-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import type { PipelineRow } from '../../../domains/pipelines/pipeline.js';
import { RESOURCE_NOT_AVAILABLE } from '../editor/errors.js';
import { graphql } from '../testing.js';

const CI = `stages: [build, test, deploy]
build:
  stage: build
  script: make
rspec:
  stage: test
  parallel: 2
  script: rspec
lint:
  stage: test
  needs: [build]
  script: lint
child:
  stage: deploy
  needs: [build]
  trigger:
    include: child.yml
deploy:
  stage: deploy
  needs: []
  when: manual
  script: deploy
`;
const CHILD = `child-job:
  script: echo child
`;

/**
 * GitLab's pipeline graph query (getPipelineDetails) exactly as gitlab.com's pipeline page sends
 * it (the fragments imported by get_pipeline_details.query.graphql inlined, with __typename).
 */
const GET_PIPELINE_DETAILS = `fragment CiNeeds on JobNeedUnion {
  ...CiBuildNeedFields
  ...CiJobNeedFields
}

fragment CiBuildNeedFields on CiBuildNeed {
  id
  name
}

fragment CiJobNeedFields on CiJob {
  id
  name
}

fragment LinkedPipelineData on Pipeline {
  __typename
  id
  iid
  path
  cancelable
  retryable
  userPermissions {
    updatePipeline
  }
  status: detailedStatus {
    __typename
    id
    group
    label
    icon
  }
  sourceJob {
    __typename
    id
    name
    retried
  }
  project {
    __typename
    id
    name
    fullPath
  }
}

query getPipelineDetails($projectPath: ID!, $iid: ID!) {
  project(fullPath: $projectPath) {
    __typename
    id
    pipeline(iid: $iid) {
      __typename
      id
      iid
      complete
      usesNeeds
      userPermissions {
        updatePipeline
      }
      downstream {
        __typename
        nodes {
          ...LinkedPipelineData
        }
      }
      upstream {
        ...LinkedPipelineData
      }
      stages {
        __typename
        nodes {
          __typename
          id
          name
          status: detailedStatus {
            __typename
            id
            action {
              __typename
              id
              icon
              path
              title
            }
          }
          groups {
            __typename
            nodes {
              __typename
              id
              status: detailedStatus {
                __typename
                id
                label
                group
                icon
              }
              name
              size
              jobs {
                __typename
                nodes {
                  __typename
                  id
                  name
                  kind
                  scheduledAt
                  needs {
                    __typename
                    nodes {
                      __typename
                      id
                      name
                    }
                  }
                  previousStageJobsOrNeeds {
                    __typename
                    nodes {
                      ...CiNeeds
                    }
                  }
                  status: detailedStatus {
                    __typename
                    id
                    icon
                    tooltip
                    hasDetails
                    detailsPath
                    group
                    label
                    action {
                      __typename
                      id
                      buttonTitle
                      icon
                      path
                      title
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
`;

const JOBS = `query jobs($fullPath: ID!, $iid: ID!, $statuses: [CiJobStatus!]) {
  project(fullPath: $fullPath) {
    pipeline(iid: $iid) {
      status
      jobs(statuses: $statuses) { count nodes { id name status kind stage { name } allowFailure manualJob playable retryable cancelable webPath refName shortSha tags
        needs { nodes { name } } downstreamPipeline { id iid project { fullPath } } detailedStatus { group action { title buttonTitle path } } } }
    }
  }
}`;

const PIPELINES = `query pipelines($fullPath: ID!, $first: Int, $after: String, $status: PipelineStatusEnum, $source: String) {
  project(fullPath: $fullPath) {
    pipelines(first: $first, after: $after, status: $status, source: $source) {
      count
      pageInfo { hasNextPage endCursor }
      nodes { id iid status ref sha source path active complete cancelable retryable createdAt updatedAt startedAt finishedAt duration queuedDuration coverage
        user { username } project { fullPath name } detailedStatus { id group label icon text tooltip hasDetails detailsPath } }
    }
  }
}`;

describe(`GraphQL pipelines and jobs (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let ci: PipelineFixtures;
  let project: { id: number; path_with_namespace: string };
  let pipeline: PipelineRow;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  const ask = (query: string, variables: Record<string, unknown>, token: string = fx.server.root.token) => graphql(fx.server.url, query, variables, { token });
  const jobsOf = async (token?: string, statuses?: string[]) => {
    const { body } = await ask(JOBS, { fullPath: project.path_with_namespace, iid: String(pipeline.iid), ...(statuses ? { statuses } : {}) }, token);
    expect(body.errors).toBeUndefined();
    return Object.fromEntries((body.data.project.pipeline.jobs.nodes as any[]).map((job) => [job.name, job]));
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    ci = pipelineFixtures(fx);
    ({ project, pipeline } = await ci.createCiProject('gql-pipelines', { '.gitlab-ci.yml': CI, 'child.yml': CHILD }));
    developer = await fx.member(project.id, 30);
    guest = await fx.member(project.id, 10);
    stranger = await fx.server.createUser();
    // the build job ends, so the test stage runs and `lint` (needs: build) is pending
    const jobs = await ci.jobs(pipeline.id);
    await ci.runJob(jobs.build!.id, 'success');
    await ci.statusesBecome(pipeline.id, { 'rspec 1/2': 'pending', 'rspec 2/2': 'pending', lint: 'pending' });
  });
  afterAll(() => fx?.close());

  it("answers GitLab's getPipelineDetails query as the pipeline page sends it: stages, parallel groups, needs, actions", async () => {
    const { status, body } = await ask(GET_PIPELINE_DETAILS, { projectPath: project.path_with_namespace, iid: String(pipeline.iid) });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const answered = body.data.project.pipeline;
    expect(answered).toMatchObject({ __typename: 'Pipeline', id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`, iid: String(pipeline.iid), complete: false, usesNeeds: true, userPermissions: { updatePipeline: true }, upstream: null });
    expect(answered.stages.nodes.map((stage: any) => stage.name)).toEqual(['build', 'test', 'deploy']);
    const test = answered.stages.nodes[1];
    // the two parallel jobs are one group of size 2, beside lint
    expect(test.groups.nodes.map((group: any) => [group.name, group.size])).toEqual([
      ['rspec', 2],
      ['lint', 1],
    ]);
    const rspec = test.groups.nodes[0].jobs.nodes;
    expect(rspec.map((job: any) => job.name)).toEqual(['rspec 1/2', 'rspec 2/2']);
    expect(rspec[0]).toMatchObject({ __typename: 'CiJob', kind: 'BUILD', status: { group: 'pending', action: { title: 'Cancel', buttonTitle: 'Cancel this job' } } });
    // a stage job's previous jobs are the stage before; a DAG job's are its needs
    expect(rspec[0].previousStageJobsOrNeeds.nodes.map((need: any) => need.name)).toEqual(['build']);
    const lint = test.groups.nodes[1].jobs.nodes[0];
    expect(lint.needs.nodes.map((need: any) => need.name)).toEqual(['build']);
    expect(lint.previousStageJobsOrNeeds.nodes).toEqual([{ id: expect.any(String), name: 'build' }]);
    const last = Object.fromEntries(answered.stages.nodes[2].groups.nodes.map((group: any) => [group.name, group.jobs.nodes[0]]));
    const deploy = last.deploy;
    expect(deploy).toMatchObject({ name: 'deploy', status: { group: 'manual', action: { title: 'Run', buttonTitle: 'Run job' } } });
    const bridge = last.child;
    expect(bridge).toMatchObject({ name: 'child', kind: 'BRIDGE', status: { hasDetails: false, detailsPath: null } });
  });

  it('lists pipelines with pageInfo and count, filtered by status and source, newest first', async () => {
    const { body } = await ask(PIPELINES, { fullPath: project.path_with_namespace, first: 1 });
    expect(body.errors).toBeUndefined();
    const listed = body.data.project.pipelines;
    expect(listed.count).toBe(1);
    expect(listed.pageInfo.hasNextPage).toBe(false);
    expect(listed.nodes[0]).toMatchObject({
      id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
      status: 'RUNNING',
      ref: 'main',
      sha: pipeline.sha,
      source: 'push',
      path: `/${project.path_with_namespace}/-/pipelines/${pipeline.id}`,
      active: true,
      complete: false,
      cancelable: true,
      retryable: false,
      user: { username: 'root' },
      project: { fullPath: project.path_with_namespace },
      detailedStatus: { group: 'running', label: 'running', hasDetails: true },
    });
    const none = await ask(PIPELINES, { fullPath: project.path_with_namespace, status: 'SUCCESS' });
    expect(none.body.data.project.pipelines).toMatchObject({ count: 0, nodes: [] });
  });

  it('shows a bridge its child pipeline, and the child its upstream and source job', async () => {
    const bridgeId = (await ci.jobs(pipeline.id)).child!.id;
    const child = await ci.downstreamOf(bridgeId);
    const jobs = await jobsOf();
    expect(jobs.child).toMatchObject({ kind: 'BRIDGE', downstreamPipeline: { id: `gid://gitlab/Ci::Pipeline/${child.id}`, project: { fullPath: project.path_with_namespace } } });
    const { body } = await ask(
      `query($fullPath: ID!, $id: CiPipelineID) { project(fullPath: $fullPath) { pipeline(id: $id) { iid source upstream { id } sourceJob { id name } jobs { nodes { name } } } } }`,
      { fullPath: project.path_with_namespace, id: `gid://gitlab/Ci::Pipeline/${child.id}` },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.project.pipeline).toMatchObject({ source: 'parent_pipeline', upstream: { id: `gid://gitlab/Ci::Pipeline/${pipeline.id}` }, sourceJob: { id: `gid://gitlab/Ci::Bridge/${bridgeId}`, name: 'child' }, jobs: { nodes: [{ name: 'child-job' }] } });
    const parent = await ask(`query($p: ID!, $iid: ID!) { project(fullPath: $p) { pipeline(iid: $iid) { downstream { nodes { id } } } } }`, { p: project.path_with_namespace, iid: String(pipeline.iid) });
    expect(parent.body.data.project.pipeline.downstream.nodes).toEqual([{ id: `gid://gitlab/Ci::Pipeline/${child.id}` }]);
  });

  it('filters jobs by status and describes them with GitLab’s fields', async () => {
    const pending = await jobsOf(undefined, ['PENDING']);
    expect(Object.keys(pending).filter((name) => name !== 'child').sort()).toEqual(['lint', 'rspec 1/2', 'rspec 2/2']);
    expect(pending.lint).toMatchObject({ stage: { name: 'test' }, allowFailure: false, manualJob: false, playable: false, cancelable: true, refName: 'main', shortSha: pipeline.sha.slice(0, 8), webPath: expect.stringMatching(/\/-\/jobs\/\d+$/) });
  });

  it('never keeps a CI answer: a job changed in an unwatched table is seen at the next query', async () => {
    const lint = (await ci.jobs(pipeline.id)).lint!;
    const question = `query($p: ID!, $iid: ID!) { project(fullPath: $p) { pipeline(iid: $iid) { jobs { nodes { name coverage } } } } }`;
    const coverage = async () => {
      const { body } = await graphql(fx.server.url, question, { p: project.path_with_namespace, iid: String(pipeline.iid) }, { token: fx.server.root.token });
      return (body.data.project.pipeline.jobs.nodes as any[]).find((job) => job.name === 'lint').coverage;
    };
    expect(await coverage()).toBeNull();
    // only ci_builds is written (no table the response cache watches)
    await fx.server.app.db.query('UPDATE ci_builds SET coverage = 42.5 WHERE id = $1', [lint.id]);
    expect(await coverage()).toBe(42.5);
  });

  it('gives strangers on a private project and Guests without public pipelines nothing', async () => {
    const asStranger = await ask(PIPELINES, { fullPath: project.path_with_namespace }, stranger.token);
    expect(asStranger.body.errors).toBeUndefined();
    expect(asStranger.body.data.project).toBeNull();
    // Guests read pipelines while public pipelines are on (GitLab's default) …
    expect((await ask(PIPELINES, { fullPath: project.path_with_namespace }, guest.token)).body.data.project.pipelines.count).toBe(1);
    // … and not once they are off; the pipeline graph is null for them too
    expect((await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: false } })).status).toBe(200);
    const asGuest = await ask(PIPELINES, { fullPath: project.path_with_namespace }, guest.token);
    expect(asGuest.body.errors).toBeUndefined();
    expect(asGuest.body.data.project.pipelines).toBeNull();
    const graph = await ask(GET_PIPELINE_DETAILS, { projectPath: project.path_with_namespace, iid: String(pipeline.iid) }, guest.token);
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.project.pipeline).toBeNull();
    // and their mutations are refused like an unknown id
    const jobs = await ci.jobs(pipeline.id);
    const refused = await ask(`mutation($id: CiBuildID!) { jobCancel(input: { id: $id }) { errors job { status } } }`, { id: `gid://gitlab/Ci::Build/${jobs.lint!.id}` }, guest.token);
    expect(refused.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
    expect(refused.body.data.jobCancel).toBeNull();
    expect((await ci.jobs(pipeline.id)).lint!.status).toBe('pending');
    expect((await fx.call('PUT', `/projects/${project.id}`, { body: { public_builds: true } })).status).toBe(200);
  });

  it('plays, cancels and retries jobs through the pipelines service, answering GitLab’s payloads', async () => {
    const jobs = await ci.jobs(pipeline.id);
    const play = await ask(`mutation($id: CiProcessableID!) { jobPlay(input: { id: $id, clientMutationId: "m1" }) { clientMutationId errors job { name status } } }`, { id: `gid://gitlab/Ci::Build/${jobs.deploy!.id}` }, developer.token);
    expect(play.body.errors).toBeUndefined();
    expect(play.body.data.jobPlay).toEqual({ clientMutationId: 'm1', errors: [], job: { name: 'deploy', status: 'PENDING' } });

    const cancel = await ask(`mutation($id: CiBuildID!) { jobCancel(input: { id: $id }) { errors job { status } } }`, { id: `gid://gitlab/Ci::Build/${jobs.lint!.id}` }, developer.token);
    expect(cancel.body.data.jobCancel).toEqual({ errors: [], job: { status: 'CANCELED' } });
    // the answer is not kept: the next read sees the canceled job
    expect((await jobsOf(developer.token)).lint).toMatchObject({ status: 'CANCELED', retryable: true, detailedStatus: { action: { title: 'Run again' } } });

    const retry = await ask(`mutation($id: CiProcessableID!) { jobRetry(input: { id: $id }) { errors job { id name status retried } } }`, { id: `gid://gitlab/Ci::Build/${jobs.lint!.id}` }, developer.token);
    expect(retry.body.errors).toBeUndefined();
    expect(retry.body.data.jobRetry).toMatchObject({ errors: [], job: { name: 'lint', status: 'PENDING', retried: false } });
    expect(retry.body.data.jobRetry.job.id).not.toBe(`gid://gitlab/Ci::Build/${jobs.lint!.id}`);

    // a job that cannot be played is refused in the payload, and nothing changes
    const again = await ask(`mutation($id: CiProcessableID!) { jobPlay(input: { id: $id }) { errors job { status } } }`, { id: `gid://gitlab/Ci::Build/${jobs['rspec 1/2']!.id}` }, developer.token);
    expect(again.body.data.jobPlay).toEqual({ errors: ['Unplayable Job'], job: null });
    expect((await ci.jobs(pipeline.id))['rspec 1/2']!.status).toBe('pending');
  });

  it('cancels, retries and destroys pipelines; a Developer may not destroy, a bad id names nothing', async () => {
    const id = `gid://gitlab/Ci::Pipeline/${pipeline.id}`;
    const cancel = await ask(`mutation($id: CiPipelineID!) { pipelineCancel(input: { id: $id }) { errors } }`, { id }, developer.token);
    expect(cancel.body).toEqual({ data: { pipelineCancel: { errors: [] } } });
    expect((await jobsOf(developer.token))['rspec 1/2'].status).toBe('CANCELED');

    const retry = await ask(`mutation($id: CiPipelineID!) { pipelineRetry(input: { id: $id }) { errors pipeline { id status } } }`, { id }, developer.token);
    expect(retry.body.errors).toBeUndefined();
    expect(retry.body.data.pipelineRetry.pipeline.id).toBe(id);
    expect((await jobsOf(developer.token))['rspec 1/2'].status).toBe('PENDING');

    const destroyAsDeveloper = await ask(`mutation($id: CiPipelineID!) { pipelineDestroy(input: { id: $id }) { errors } }`, { id }, developer.token);
    expect(destroyAsDeveloper.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);
    const unknown = await ask(`mutation { pipelineDestroy(input: { id: "gid://gitlab/Ci::Pipeline/999999" }) { errors } }`, {});
    expect(unknown.body.errors?.[0]?.message).toBe(RESOURCE_NOT_AVAILABLE);

    const destroy = await ask(`mutation($id: CiPipelineID!) { pipelineDestroy(input: { id: $id }) { errors } }`, { id });
    expect(destroy.body).toEqual({ data: { pipelineDestroy: { errors: [] } } });
    const gone = await ask(`query($p: ID!, $iid: ID!) { project(fullPath: $p) { pipeline(iid: $iid) { id } } }`, { p: project.path_with_namespace, iid: String(pipeline.iid) });
    expect(gone.body.data.project.pipeline).toBeNull();
  });
});
