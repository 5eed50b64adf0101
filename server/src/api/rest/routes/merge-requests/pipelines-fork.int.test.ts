/**
 * A merge request from a fork (GitLab's rule): its merge request pipeline runs in the fork, on
 * the source branch, and its jobs get no protected variables even where the branch is protected;
 * a maintainer of the target who may run pipelines there runs it in the target (GitLab's
 * can_create_pipeline_in_target_project?), where refs/merge-requests/:iid/… is no protected
 * branch. With merged results pipelines on, the widget warns that the fork's own pipelines
 * do not test the merge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

const CONFIG = ['mr-test:', '  script: make test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');
const RUNNER_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)' };
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, masking: true, raw_variables: true } };

describe(`merge request pipelines from forks (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let fork: { id: number; path_with_namespace: string };
  let alice: TestUser;
  let aliceApi: ReturnType<typeof gitbeakerClient>;
  let iid: number;

  /** A runner of `projectId` takes its next job; the payload's variables by key. */
  async function takeJob(runnerToken: string): Promise<{ payload: Record<string, any>; variables: Record<string, string> }> {
    const payload = await eventually(async () => {
      const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { ...RUNNER_HEADERS, 'RUNNER-TOKEN': runnerToken },
        body: JSON.stringify({ info: RUNNER_INFO, token: runnerToken, last_update: '' }),
      });
      return response.status === 201 ? ((await response.json()) as Record<string, any>) : undefined;
    });
    await fetch(`${fx.server.url}/api/v4/jobs/${payload.id}`, {
      method: 'PUT',
      headers: { ...RUNNER_HEADERS, 'JOB-TOKEN': payload.token },
      body: JSON.stringify({ info: RUNNER_INFO, token: payload.token, state: 'success', exit_code: 0 }),
    });
    return { payload, variables: Object.fromEntries((payload.variables as { key: string; value: string }[]).map((v) => [v.key, v.value])) };
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    upstream = await fx.createProject('upstream-ci', { visibility: 'public' });
    await fx.root.RepositoryFiles.create(upstream.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    alice = await fx.server.createUser({ username: 'alice' });
    aliceApi = gitbeakerClient(fx.server.url, alice.token);
    const created = await aliceApi.Projects.fork(upstream.id);
    fork = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    // The fork's own secret, protected, on a protected branch: a branch pipeline there would get it.
    await aliceApi.Branches.create(fork.id, 'feature', 'main');
    await fx.call('POST', `/projects/${fork.id}/protected_branches`, { token: alice.token, body: { name: 'feature', push_access_level: 40, merge_access_level: 40 } });
    await fx.call('POST', `/projects/${fork.id}/variables`, { token: alice.token, body: { key: 'FORK_SECRET', value: 'hush-hush-1', protected: true } });
    await fx.call('POST', `/projects/${fork.id}/variables`, { token: alice.token, body: { key: 'FORK_PLAIN', value: 'plain-value', protected: false } });
    await fx.call('POST', `/projects/${upstream.id}/variables`, { body: { key: 'UPSTREAM_SECRET', value: 'hush-hush-2', protected: false } });
  });
  afterAll(() => fx?.close());

  it('runs the pipeline of a fork’s merge request in the fork, on the source branch, without protected variables', async () => {
    await aliceApi.RepositoryFiles.create(fork.id, 'feature.txt', 'feature', 'feature\n', 'Add the feature');
    const mr = await aliceApi.MergeRequests.create(fork.id, 'feature', 'main', 'From the fork', { targetProjectId: upstream.id });
    iid = mr.iid as number;
    const pipeline = await eventually(async () => (await fx.call<{ source: string; project_id: number; ref: string }[]>('GET', `/projects/${upstream.id}/merge_requests/${iid}/pipelines`)).body[0]);
    expect(pipeline).toMatchObject({ source: 'merge_request_event', project_id: fork.id, ref: 'feature' });
    const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: fork.id, runUntagged: true })) as { token: string };
    const { variables } = await takeJob(runner.token);
    expect(variables).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_PROJECT_PATH: upstream.path_with_namespace,
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: fork.path_with_namespace,
      CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: 'true',
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      FORK_PLAIN: 'plain-value',
    });
    expect(variables.FORK_SECRET).toBeUndefined();
    expect(variables.UPSTREAM_SECRET).toBeUndefined();
  });

  it('a target maintainer runs it in the target (on the trial merge with merged results on); the widget warns of the fork', async () => {
    await fx.call('PUT', `/projects/${upstream.id}`, { body: { merge_pipelines_enabled: true } });
    const created = await fx.root.MergeRequests.createPipeline(upstream.id, iid);
    // In the target with merged results on: the trial merge, as GitLab runs it for a fork's request too.
    expect(created).toMatchObject({ project_id: upstream.id, ref: `refs/merge-requests/${iid}/merge`, source: 'merge_request_event' });
    const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: upstream.id, runUntagged: true })) as { token: string };
    const { variables, payload } = await takeJob(runner.token);
    expect(payload.git_info.refspecs).toContain(`+refs/merge-requests/${iid}/merge:refs/merge-requests/${iid}/merge`);
    expect(variables).toMatchObject({ UPSTREAM_SECRET: 'hush-hush-2', CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: fork.path_with_namespace });
    const widget = (await (await fetch(`${fx.server.url}/${upstream.path_with_namespace}/-/merge_requests/${iid}/widget.json`, { headers: { 'private-token': fx.server.root.token } })).json()) as Record<string, unknown>;
    expect(widget).toMatchObject({ merge_pipelines_enabled: true, merge_pipelines_fork_warning: true });
    // Alice may not run pipelines in the target: hers runs in her fork, on the source branch.
    const byAlice = await aliceApi.MergeRequests.createPipeline(upstream.id, iid);
    expect(byAlice).toMatchObject({ project_id: fork.id, ref: 'feature' });
  });
});
