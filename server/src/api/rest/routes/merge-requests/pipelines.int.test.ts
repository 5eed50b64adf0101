/**
 * Merge request pipelines end to end, with real git pushes and jobs finished through the runner
 * protocol (the requests gitlab-runner sends): a detached pipeline when a merge request is opened
 * and when its source branch is pushed, merged results pipelines on the trial merge, the
 * CI_MERGE_REQUEST_* variables a job receives, head_pipeline, GET/POST …/pipelines (gitbeaker's
 * MergeRequests.allPipelines/createPipeline) with their refusals, and the CI_STILL_RUNNING /
 * CI_MUST_PASS checks refusing the merge until the pipeline succeeds (or was skipped, when a
 * skipped pipeline counts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { countRows } from '../../../../test-support/rest-fixtures.js';
import { gitbeakerClient, gitCli, type GitCli } from '../../../../test-support/server.js';
import { graphql } from '../../../graphql/testing.js';
import { MERGE_REQUEST_WIDGET_QUERY } from '@tributary/contracts';

const CONFIG = [
  'stages: [test]',
  'mr-test:',
  '  stage: test',
  '  script: make test',
  '  rules:',
  '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
  'branch-build:',
  '  stage: test',
  '  script: make',
  '  rules:',
  '    - if: $CI_PIPELINE_SOURCE == "push"',
  '',
].join('\n');

const RUNNER_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)' };
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, masking: true, raw_variables: true, return_exit_code: true } };

interface PipelineJson {
  id: number;
  sha: string;
  ref: string;
  status: string;
  source: string;
  project_id: number;
}

describe(`merge request pipelines (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let cli: GitCli;
  let project: { id: number; path_with_namespace: string };
  let runner: { id: number; token: string };
  const services = () => fx.server.app.services;

  async function push(branch: string, file: string, message: string): Promise<string> {
    await cli.git(['checkout', '-B', branch], { cwd: 'repo' });
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(cli.dir, 'repo', file), `${message}\n`);
    await cli.git(['add', file], { cwd: 'repo' });
    await cli.git(['commit', '-m', message], { cwd: 'repo' });
    await cli.git(['push', 'origin', branch], { cwd: 'repo' });
    return (await cli.git(['rev-parse', 'HEAD'], { cwd: 'repo' })).stdout.trim();
  }

  const mrPipelines = async (iid: number, token?: string) => fx.call<PipelineJson[]>('GET', `/projects/${project.id}/merge_requests/${iid}/pipelines`, { token });
  /** The merge request pipeline for `sha`, once its creation job has run. */
  const mrPipelineFor = (iid: number, sha: string) =>
    eventually(async () => (await mrPipelines(iid)).body.find((pipeline) => pipeline.source === 'merge_request_event' && pipeline.sha === sha));

  /** gitlab-runner takes the next pending job of the project and reports `state`; answers the payload it was given. */
  async function runNextJob(state: 'success' | 'failed'): Promise<Record<string, any>> {
    const payload = await eventually(async () => {
      const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { ...RUNNER_HEADERS, 'RUNNER-TOKEN': runner.token },
        body: JSON.stringify({ info: RUNNER_INFO, token: runner.token, last_update: '' }),
      });
      return response.status === 201 ? ((await response.json()) as Record<string, any>) : undefined;
    });
    const update = await fetch(`${fx.server.url}/api/v4/jobs/${payload.id}`, {
      method: 'PUT',
      headers: { ...RUNNER_HEADERS, 'JOB-TOKEN': payload.token },
      body: JSON.stringify({ info: RUNNER_INFO, token: payload.token, state, ...(state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : { exit_code: 0 }) }),
    });
    expect(update.status).toBe(200);
    return payload;
  }

  /** Runs pending jobs in order (the others succeed) until the job named `name` of the merge request's pipelines has reported `state`. */
  async function runJob(name: string, state: 'success' | 'failed'): Promise<Record<string, any>> {
    for (;;) {
      const peek = await eventually(async () => (await services().pipelinesRepository.pendingJobs(1))[0]);
      const payload = await runNextJob(peek.name === name ? state : 'success');
      if (payload.job_info.name === name) return payload;
    }
  }

  const mergeRequest = async (iid: number) => (await fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_requests/${iid}`)).body;
  const detailedStatus = async (iid: number) => (await mergeRequest(iid)).detailed_merge_status as string;

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('mr-pipelines');
    runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    cli = gitCli({ url: fx.server.url, username: 'root', password: fx.server.root.token });
    await cli.git(['clone', cli.repoUrl(project.path_with_namespace), 'repo']);
    await cli.git(['config', 'user.email', 'root@example.com'], { cwd: 'repo' });
    await cli.git(['config', 'user.name', 'Root'], { cwd: 'repo' });
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(cli.dir, 'repo', '.gitlab-ci.yml'), CONFIG);
    await cli.git(['add', '.gitlab-ci.yml'], { cwd: 'repo' });
    await cli.git(['commit', '-m', 'Add CI'], { cwd: 'repo' });
    await cli.git(['push', 'origin', 'main'], { cwd: 'repo' });
    // The branch pipeline of main (branch-build) is run and finished, so the queue holds only what follows.
    await runNextJob('success');
  });
  afterAll(async () => {
    await cli?.close();
    await fx?.close();
  });

  let iid: number;
  let head: string;

  it('opens a merge request: a detached merge request pipeline on refs/merge-requests/:iid/head with the merge request jobs only', async () => {
    head = await push('feature', 'feature.txt', 'Add the feature');
    const created = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Add the feature', { labels: 'ci,backend' });
    iid = created.iid as number;
    const pipeline = await mrPipelineFor(iid, head);
    expect(pipeline).toMatchObject({ ref: `refs/merge-requests/${iid}/head`, source: 'merge_request_event', project_id: project.id });
    const jobs = await services().pipelinesRepository.latestJobs(pipeline.id);
    expect(jobs.map((job) => job.name)).toEqual(['mr-test']);
    // The push of the branch made its own branch pipeline (branch-build) for the same commit.
    const branchPipelines = await eventually(async () => {
      const all = (await fx.call<PipelineJson[]>('GET', `/projects/${project.id}/pipelines?ref=feature`)).body;
      return all.length > 0 ? all : undefined;
    });
    expect(branchPipelines[0]).toMatchObject({ source: 'push', sha: head });
    // The list: merge request pipelines first, then the source branch's pipelines for its commits.
    const listed = (await mrPipelines(iid)).body;
    expect(listed.map((p) => p.source)).toEqual(['merge_request_event', 'push']);
  });

  it('head_pipeline prefers the merge request pipeline of the diff head', async () => {
    const mr = await mergeRequest(iid);
    const pipeline = await mrPipelineFor(iid, head);
    expect(mr.head_pipeline).toMatchObject({ id: pipeline.id, sha: head, ref: `refs/merge-requests/${iid}/head`, status: 'pending', source: 'merge_request_event' });
    expect(mr.head_pipeline.detailed_status).toMatchObject({ group: 'pending' });
    expect(mr.pipeline).toMatchObject({ id: pipeline.id });
  });

  it('hands the job the CI_MERGE_REQUEST_* variables, the source branch as CI_COMMIT_REF_NAME, and the merge request ref to fetch', async () => {
    const payload = await runJob('mr-test', 'success');
    const variables = Object.fromEntries((payload.variables as { key: string; value: string }[]).map((v) => [v.key, v.value]));
    expect(variables).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_IID: String(iid),
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_MERGE_REQUEST_TITLE: 'Add the feature',
      CI_MERGE_REQUEST_LABELS: 'backend,ci',
      CI_MERGE_REQUEST_PROJECT_PATH: project.path_with_namespace,
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: project.path_with_namespace,
      CI_MERGE_REQUEST_REF_PATH: `refs/merge-requests/${iid}/head`,
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '',
      CI_COMMIT_REF_NAME: 'feature',
      CI_COMMIT_SHA: head,
    });
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();
    expect(payload.git_info.refspecs).toContain(`+refs/merge-requests/${iid}/head:refs/merge-requests/${iid}/head`);
    await eventually(async () => (await mrPipelineFor(iid, head)).status === 'success');
  });

  it('a push to the source branch creates the next merge request pipeline; "Pipelines must succeed" holds the merge while it runs and after it fails', async () => {
    await fx.root.Projects.edit(project.id, { onlyAllowMergeIfPipelineSucceeds: true });
    head = await push('feature', 'feature.txt', 'Improve the feature');
    const pipeline = await mrPipelineFor(iid, head);
    expect(pipeline.ref).toBe(`refs/merge-requests/${iid}/head`);
    await eventually(async () => (await detailedStatus(iid)) === 'ci_still_running');
    const refused = await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`);
    expect(refused.status).toBe(405);

    await runJob('mr-test', 'failed');
    await eventually(async () => (await detailedStatus(iid)) === 'ci_must_pass');
    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`)).status).toBe(405);
  });

  it('POST …/pipelines runs a new merge request pipeline (gitbeaker createPipeline), and its success lets the merge through', async () => {
    const created = await fx.root.MergeRequests.createPipeline(project.id, iid);
    expect(created).toMatchObject({ sha: head, ref: `refs/merge-requests/${iid}/head`, source: 'merge_request_event', status: 'pending' });
    const listed = await fx.root.MergeRequests.allPipelines(project.id, iid);
    expect(listed[0]).toMatchObject({ id: created.id });
    // Each move of its jobs tells the merge request's page (merge_request.changed, in the job's transaction).
    const announced = async () => countRows(fx.server, 'domain_events', `type = 'merge_request.changed' AND payload->>'mergeRequestId' = $1`, [String(mergeRequestId)]);
    const mergeRequestId = (await mergeRequest(iid)).id as number;
    const before = await announced();
    await runJob('mr-test', 'success');
    expect(await announced()).toBeGreaterThan(before);
    await eventually(async () => (await detailedStatus(iid)) === 'mergeable');
  });

  it('a skipped pipeline blocks until the project counts skipped pipelines as successful', async () => {
    head = await push('feature', 'feature.txt', 'Tidy up [ci skip]');
    const skipped = await mrPipelineFor(iid, head);
    expect(skipped.status).toBe('skipped');
    await eventually(async () => (await detailedStatus(iid)) === 'ci_must_pass');
    await fx.root.Projects.edit(project.id, { allowMergeOnSkippedPipeline: true } as never);
    expect((await fx.call<Record<string, unknown>>('GET', `/projects/${project.id}`)).body).toMatchObject({ only_allow_merge_if_pipeline_succeeds: true, allow_merge_on_skipped_pipeline: true });
    await eventually(async () => (await detailedStatus(iid)) === 'mergeable');
  });

  it('merged results pipelines run the trial merge commit on refs/merge-requests/:iid/merge', async () => {
    await fx.call('PUT', `/projects/${project.id}`, { body: { merge_pipelines_enabled: true } });
    // the target moves on, so the trial merge differs from the head
    await fx.root.RepositoryFiles.create(project.id, 'other.txt', 'main', 'other\n', 'Target change');
    const mergeRef = await eventually(async () => {
      const answer = await fx.call<{ commit_id: string }>('GET', `/projects/${project.id}/merge_requests/${iid}/merge_ref`);
      const target = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
      const parents = answer.status === 200 ? await fx.bareGit(project.id, ['rev-parse', `${answer.body.commit_id}^1`]) : '';
      return parents === target ? answer.body.commit_id : undefined;
    });
    const created = (await fx.call<PipelineJson>('POST', `/projects/${project.id}/merge_requests/${iid}/pipelines`)).body;
    expect(created).toMatchObject({ ref: `refs/merge-requests/${iid}/merge`, sha: mergeRef, source: 'merge_request_event' });
    const stored = (await services().pipelinesRepository.pipelineById(created.id))!;
    expect(stored).toMatchObject({ source_sha: head, merge_request_id: expect.any(Number) });
    const variables = Object.fromEntries(stored.merge_request_variables.map((v) => [v.key, v.value]));
    expect(variables).toMatchObject({ CI_MERGE_REQUEST_EVENT_TYPE: 'merged_result', CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: head });
    // the merged results pipeline is the merge request's pipeline: its source head is the diff head
    expect((await mergeRequest(iid)).head_pipeline).toMatchObject({ id: created.id });
  });

  it('the widget reads the pipeline: GraphQL headPipeline and pipelines, the REST widget payload', async () => {
    const answer = await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath: project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token });
    const mr = answer.body.data.project.mergeRequest;
    expect(answer.body.data.project).toMatchObject({ onlyAllowMergeIfPipelineSucceeds: true, allowMergeOnSkippedPipeline: true, ciCdSettings: { mergePipelinesEnabled: true } });
    expect(mr).toMatchObject({
      hasCi: true,
      headPipeline: { status: 'PENDING', active: true, mergeRequestEventType: 'MERGED_RESULT', eventTypeName: 'Merged results pipeline', detailedStatus: { group: 'pending' } },
      mergePipelinesForkWarning: false,
      pipelineRetargetedWarning: null,
    });
    expect(mr.headPipeline.stages.nodes).toEqual([{ name: 'test', status: 'pending', detailedStatus: expect.objectContaining({ group: 'pending' }) }]);
    expect(mr.mergeabilityChecks).toEqual(expect.arrayContaining([{ identifier: 'CI_STILL_RUNNING', status: 'FAILED' }, { identifier: 'CI_MUST_PASS', status: 'CHECKING' }]));
    expect(mr.detailedMergeStatus).toBe('CI_STILL_RUNNING');
    const listed = await graphql(fx.server.url, `query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { pipelines(first: 2) { count nodes { iid mergeRequestEventType } } } } }`, { p: project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token });
    expect(listed.body.data.project.mergeRequest.pipelines.nodes[0]).toMatchObject({ mergeRequestEventType: 'MERGED_RESULT' });
    expect(listed.body.data.project.mergeRequest.pipelines.count).toBeGreaterThan(2);

    const widget = (await (await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${iid}/widget.json`, { headers: { 'private-token': fx.server.root.token } })).json()) as Record<string, any>;
    expect(widget).toMatchObject({
      has_ci: true,
      ci_status: 'pending',
      merge_pipelines_enabled: true,
      only_allow_merge_if_pipeline_succeeds: true,
      pipeline: { active: true, flags: { merged_result_pipeline: true, merge_request_pipeline: true }, details: { event_type_name: 'Merged results pipeline', status: { group: 'pending' } }, ref: { branch: false } },
      detailed_merge_status: 'ci_still_running',
    });
  });

  it('refuses strangers (404), a Reporter running one (403) and Guests reading them (403)', async () => {
    const stranger = await fx.server.createUser();
    const reporter = await fx.member(project.id, 20);
    const guest = await fx.member(project.id, 10);
    expect((await mrPipelines(iid, stranger.token)).status).toBe(404);
    expect((await fx.call('POST', `/projects/${project.id}/merge_requests/${iid}/pipelines`, { token: stranger.token })).status).toBe(404);
    expect((await mrPipelines(iid, reporter.token)).status).toBe(200);
    const before = (await mrPipelines(iid)).body.length;
    const refused = await fx.call<{ message: string }>('POST', `/projects/${project.id}/merge_requests/${iid}/pipelines`, { token: reporter.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    expect((await mrPipelines(iid)).body.length).toBe(before);
    expect([403, 404]).toContain((await mrPipelines(iid, guest.token)).status);
    // head_pipeline only for those who may read the project's pipelines (GitLab's read_pipeline)
    expect((await fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_requests/${iid}`, { token: reporter.token })).body.head_pipeline).toMatchObject({ sha: expect.any(String) });
    const asGuest = await fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_requests/${iid}`, { token: guest.token });
    if (asGuest.status === 200) expect(asGuest.body.head_pipeline).toBeNull();
    expect((await fx.call('POST', `/projects/${project.id}/merge_requests/${iid}/pipelines`, { token: null })).status).toBe(401);
    // gitbeaker as the Reporter: listing works, creating is refused
    const api = gitbeakerClient(fx.server.url, reporter.token);
    expect((await api.MergeRequests.allPipelines(project.id, iid)).length).toBe(before);
    await expect(api.MergeRequests.createPipeline(project.id, iid)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/999/pipelines`)).status).toBe(404);
  });

  it('answers 400 with GitLab’s message when the configuration gives no pipeline, and stores nothing', async () => {
    const bare = await fx.createProject('no-mr-jobs');
    await fx.root.RepositoryFiles.create(bare.id, 'x.txt', 'topic', 'x\n', 'Topic', { startBranch: 'main' } as never);
    const other = (await fx.root.MergeRequests.create(bare.id, 'topic', 'main', 'No CI')).iid as number;
    const missing = await fx.call<{ message: unknown }>('POST', `/projects/${bare.id}/merge_requests/${other}/pipelines`);
    expect(missing).toMatchObject({ status: 400, body: { message: { base: ['Missing CI config file'] } } });
    await fx.root.RepositoryFiles.create(bare.id, '.gitlab-ci.yml', 'topic', 'build:\n  script: make\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\n', 'Branch CI only');
    const tip = await fx.bareGit(bare.id, ['rev-parse', 'refs/heads/topic']);
    await eventually(async () => (await fx.root.MergeRequests.show(bare.id, other)).sha === tip && (await countRows(fx.server, 'background_jobs', `queue = 'pipelines.create_for_merge_request' AND state <> 'done'`)) === 0);
    const noJobs = await fx.call<{ message: { base: string[] } }>('POST', `/projects/${bare.id}/merge_requests/${other}/pipelines`);
    expect(noJobs.status).toBe(400);
    expect(noJobs.body.message.base[0]).toMatch(/^Pipeline will not run for the selected trigger/);
    expect(await countRows(fx.server, 'ci_pipelines', 'merge_request_id IS NOT NULL AND project_id = $1', [bare.id])).toBe(0);
  });

  it('after a retarget with merged results pipelines on: no new pipeline for the same head, and the widget says to run one', async () => {
    const before = (await mrPipelines(iid)).body.length;
    await fx.root.Branches.create(project.id, 'stable', 'main');
    await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}`, { body: { target_branch: 'stable' } });
    await eventually(async () => (await countRows(fx.server, 'background_jobs', `queue = 'pipelines.create_for_merge_request' AND state <> 'done'`)) === 0 && (await mergeRequest(iid)).target_branch === 'stable');
    expect((await mrPipelines(iid)).body.length).toBe(before);
    const message = 'You should run a new pipeline, because the target branch has changed for this merge request.';
    const widget = (await (await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${iid}/widget.json`, { headers: { 'private-token': fx.server.root.token } })).json()) as Record<string, unknown>;
    expect(widget).toMatchObject({ retargeted: true, pipeline_retargeted_warning: message });
    const answer = await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath: project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token });
    expect(answer.body.data.project.mergeRequest.pipelineRetargetedWarning).toBe(message);
  });
});
