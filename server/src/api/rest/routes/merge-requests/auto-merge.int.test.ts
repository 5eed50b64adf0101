/**
 * Auto-merge end to end, with real git pushes and jobs run through the runner protocol (the
 * requests gitlab-runner sends): gitbeaker's MergeRequests.merge with
 * mergeWhenPipelineSucceeds sets it while the pipeline runs and the request merges itself when
 * the pipeline succeeds; a failed pipeline and someone else's push abort it with GitLab's
 * system notes; cancelOnPipelineSuccess cancels it (406 when none is set); strangers and
 * too-low roles are refused; with the pipeline already passed it merges at once; and two
 * evaluations racing (a second merging service, as another process has) merge it once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutoMergeRepository, createAutoMergeService, NO_MERGE_TRAINS } from '../../../../domains/auto-merge/index.js';
import { createMergeRequestsRepository } from '../../../../domains/merge-requests/merge-requests.repository.js';
import { createMergingDomain } from '../../../../domains/merge-requests/merging/index.js';
import { createProjectsRepository } from '../../../../domains/projects/projects.repository.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { countRows } from '../../../../test-support/rest-fixtures.js';
import { gitbeakerClient, gitCli, type GitCli, type TestUser } from '../../../../test-support/server.js';
import { graphql } from '../../../graphql/testing.js';

const CONFIG = ['mr-test:', '  script: make test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');

const RUNNER_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'gitlab-runner 17.5.0 (17-5-stable; go1.22.7; linux/amd64)' };
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', executor: 'shell', features: { variables: true, refspecs: true, masking: true, raw_variables: true, return_exit_code: true } };

describe(`auto-merge (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let cli: GitCli;
  let project: { id: number; path_with_namespace: string };
  let runner: { id: number; token: string };
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  const services = () => fx.server.app.services;

  async function push(git: GitCli, branch: string, file: string, message: string): Promise<string> {
    await git.git(['checkout', '-B', branch], { cwd: 'repo' });
    writeFileSync(join(git.dir, 'repo', file), `${message}\n`);
    await git.git(['add', file], { cwd: 'repo' });
    await git.git(['commit', '-m', message], { cwd: 'repo' });
    await git.git(['push', 'origin', branch], { cwd: 'repo' });
    return (await git.git(['rev-parse', 'HEAD'], { cwd: 'repo' })).stdout.trim();
  }

  /** gitlab-runner takes the next pending job of the project and reports `state`. */
  async function runNextJob(state: 'success' | 'failed'): Promise<void> {
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
  }

  const mergeRequest = async (iid: number) => (await fx.call<Record<string, any>>('GET', `/projects/${project.id}/merge_requests/${iid}`)).body;
  const systemNotes = async (iid: number) =>
    ((await fx.root.MergeRequestNotes.all(project.id, iid)) as Array<{ body: string; system: boolean }>).filter((note) => note.system).map((note) => note.body);
  /** Opens a merge request from a new branch and waits for its pipeline (its one job pending). */
  async function openWithPipeline(branch: string): Promise<{ iid: number; head: string }> {
    const head = await push(cli, branch, `${branch}.txt`, `Add ${branch}`);
    const created = await fx.root.MergeRequests.create(project.id, branch, 'main', `Add ${branch}`);
    await eventually(async () => (await mergeRequest(created.iid as number)).head_pipeline?.sha === head);
    return { iid: created.iid as number, head };
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('auto-merge');
    runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { id: number; token: string };
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    stranger = await fx.server.createUser({ username: 'am-stranger' });
    cli = gitCli({ url: fx.server.url, username: 'root', password: fx.server.root.token });
    await cli.git(['clone', cli.repoUrl(project.path_with_namespace), 'repo']);
    await cli.git(['config', 'user.email', 'root@example.com'], { cwd: 'repo' });
    await cli.git(['config', 'user.name', 'Root'], { cwd: 'repo' });
    writeFileSync(join(cli.dir, 'repo', '.gitlab-ci.yml'), CONFIG);
    await cli.git(['add', '.gitlab-ci.yml'], { cwd: 'repo' });
    await cli.git(['commit', '-m', 'Add CI'], { cwd: 'repo' });
    await cli.git(['push', 'origin', 'main'], { cwd: 'repo' });
  });
  afterAll(async () => {
    await cli?.close();
    await fx?.close();
  });

  it('sets auto-merge while the pipeline runs (gitbeaker merge with mergeWhenPipelineSucceeds) and merges when it succeeds, as the user who set it', async () => {
    const { iid, head } = await openWithPipeline('feature-pass');
    const set = (await fx.root.MergeRequests.merge(project.id, iid, { mergeWhenPipelineSucceeds: true, shouldRemoveSourceBranch: true })) as Record<string, any>;
    expect(set).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'root' } });
    expect(await systemNotes(iid)).toContain(`enabled an automatic merge when all merge checks for ${head.slice(0, 8)} pass`);

    await runNextJob('success');
    const merged = await eventually(async () => {
      const mr = await mergeRequest(iid);
      return mr.state === 'merged' ? mr : undefined;
    });
    expect(merged).toMatchObject({ merged_by: { username: 'root' }, merge_when_pipeline_succeeds: false });
    // the option chosen when it was set: the source branch is removed after the merge
    await eventually(async () => (await fx.call('GET', `/projects/${project.id}/repository/branches/feature-pass`)).status === 404);
    expect(await countRows(fx.server, 'merge_request_auto_merges', 'merge_request_id = $1', [merged.id])).toBe(0);
  });

  it('aborts with a system note when the pipeline fails, and the request stays open', async () => {
    const { iid } = await openWithPipeline('feature-fail');
    const set = await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`, { body: { auto_merge: true } });
    expect(set.status).toBe(200);
    expect(set.body.merge_when_pipeline_succeeds).toBe(true);
    await runNextJob('failed');
    await eventually(async () => (await systemNotes(iid)).includes('aborted the automatic merge because the pipeline failed'));
    expect(await mergeRequest(iid)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false, merge_user: null });
  });

  it("aborts with a system note when someone else pushes to the source branch; the setter's own push keeps it", async () => {
    const { iid } = await openWithPipeline('feature-push');
    await fx.root.MergeRequests.merge(project.id, iid, { mergeWhenPipelineSucceeds: true });
    // root's own push: still set, for the new head
    const own = await push(cli, 'feature-push', 'feature-push.txt', 'More by root');
    await eventually(async () => (await mergeRequest(iid)).sha === own);
    expect((await mergeRequest(iid)).merge_when_pipeline_succeeds).toBe(true);
    expect(await systemNotes(iid)).not.toContain('aborted the automatic merge because source branch was updated');

    const other = gitCli({ url: fx.server.url, username: developer.username, password: developer.token });
    try {
      await other.git(['clone', other.repoUrl(project.path_with_namespace), 'repo']);
      await other.git(['config', 'user.email', 'dev@example.com'], { cwd: 'repo' });
      await other.git(['config', 'user.name', 'Dev'], { cwd: 'repo' });
      await other.git(['fetch', 'origin', 'feature-push'], { cwd: 'repo' });
      await other.git(['checkout', '-B', 'feature-push', 'origin/feature-push'], { cwd: 'repo' });
      await push(other, 'feature-push', 'dev.txt', 'A push by the developer');
    } finally {
      await other.close();
    }
    await eventually(async () => (await systemNotes(iid)).includes('aborted the automatic merge because source branch was updated'));
    expect(await mergeRequest(iid)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    // the pipelines of the heads (an older one may have been canceled as redundant): run them until
    // the head's has passed, so later tests start clean; nothing merges
    const headPassed = async () => (await mergeRequest(iid)).head_pipeline?.status === 'success';
    while (!(await headPassed())) {
      if ((await services().pipelinesRepository.pendingJobs(1)).length > 0) await runNextJob('success');
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await mergeRequest(iid)).state).toBe('opened');
  });

  it('re-checks the setter at the merge: demoted to Developer, the pipeline passes and it is aborted, not merged', async () => {
    const maintainer = await fx.member(project.id, 40);
    const { iid } = await openWithPipeline('feature-demoted');
    const set = await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`, { token: maintainer.token, body: { auto_merge: true } });
    expect(set.status).toBe(200);
    expect(set.body.merge_user).toMatchObject({ username: maintainer.username });
    await fx.root.ProjectMembers.edit(project.id, maintainer.id, 30);
    await runNextJob('success');
    await eventually(async () => (await systemNotes(iid)).includes('aborted the automatic merge because the merge user can no longer merge'));
    expect(await mergeRequest(iid)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
  });

  it('cancels (gitbeaker cancelOnPipelineSuccess: 201), 406 when none is set; strangers 404, a Reporter 401', async () => {
    const { iid } = await openWithPipeline('feature-cancel');
    const path = `/projects/${project.id}/merge_requests/${iid}`;
    // refusals change nothing
    expect((await fx.call('PUT', `${path}/merge`, { token: stranger.token, body: { auto_merge: true } })).status).toBe(404);
    expect((await fx.call('PUT', `${path}/merge`, { token: reporter.token, body: { auto_merge: true } })).status).toBe(401);
    expect((await fx.call('PUT', `${path}/merge`, { token: developer.token, body: { auto_merge: true } })).status).toBe(401); // main is protected: Maintainers merge
    expect((await mergeRequest(iid)).merge_when_pipeline_succeeds).toBe(false);
    expect((await fx.call('PUT', `${path}/merge`, { body: { auto_merge: true, sha: '0'.repeat(40) } })).status).toBe(409);

    await fx.root.MergeRequests.merge(project.id, iid, { autoMerge: true } as never);
    expect((await fx.call('POST', `${path}/cancel_merge_when_pipeline_succeeds`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('POST', `${path}/cancel_merge_when_pipeline_succeeds`, { token: reporter.token })).status).toBe(401);
    expect((await mergeRequest(iid)).merge_when_pipeline_succeeds).toBe(true);

    const cancelled = (await gitbeakerClient(fx.server.url, fx.server.root.token).MergeRequests.cancelOnPipelineSuccess(project.id, iid)) as Record<string, any>;
    expect(cancelled).toMatchObject({ iid, state: 'opened', merge_when_pipeline_succeeds: false, merge_user: null });
    expect(await systemNotes(iid)).toContain('canceled the automatic merge');
    const again = await fx.call('POST', `${path}/cancel_merge_when_pipeline_succeeds`);
    expect(again.status).toBe(406);
    expect(again.body).toEqual({ message: "Can't cancel the automatic merge" });

    // With the pipeline already passed no strategy is available: GitLab merges at once.
    await runNextJob('success');
    await eventually(async () => (await mergeRequest(iid)).head_pipeline?.status === 'success' && (await mergeRequest(iid)).detailed_merge_status === 'mergeable');
    const now = await fx.call('PUT', `${path}/merge`, { body: { merge_when_pipeline_succeeds: true } });
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false });
  });

  it('GraphQL: availableAutoMergeStrategies, mergeRequestAccept with a strategy, autoMergeEnabled / autoMergeStrategy / mergeUser', async () => {
    const { iid, head } = await openWithPipeline('feature-graphql');
    const FIELDS = 'autoMergeEnabled autoMergeStrategy availableAutoMergeStrategies preferredAutoMergeStrategy mergeUser { username }';
    const read = async (token: string) =>
      (await graphql(fx.server.url, `query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { ${FIELDS} } } }`, { p: project.path_with_namespace, iid: String(iid) }, { token })).body.data
        .project?.mergeRequest;
    expect(await read(fx.server.root.token)).toEqual({ autoMergeEnabled: false, autoMergeStrategy: null, availableAutoMergeStrategies: ['merge_when_checks_pass'], preferredAutoMergeStrategy: 'merge_when_checks_pass', mergeUser: null });
    // who may not merge is offered nothing
    expect((await read(developer.token)).availableAutoMergeStrategies).toEqual([]);

    const ACCEPT = `mutation($p: ID!, $iid: String!, $sha: String!) { mergeRequestAccept(input: { projectPath: $p, iid: $iid, sha: $sha, strategy: MERGE_WHEN_CHECKS_PASS }) { errors mergeRequest { ${FIELDS} state } } }`;
    const refused = await graphql(fx.server.url, ACCEPT, { p: project.path_with_namespace, iid: String(iid), sha: '0'.repeat(40) }, { token: fx.server.root.token });
    expect(refused.body.data.mergeRequestAccept.errors).toEqual(['The merge-head is not at the anticipated SHA']);
    const accepted = await graphql(fx.server.url, ACCEPT, { p: project.path_with_namespace, iid: String(iid), sha: head }, { token: fx.server.root.token });
    expect(accepted.body.data.mergeRequestAccept).toEqual({
      errors: [],
      mergeRequest: { autoMergeEnabled: true, autoMergeStrategy: 'merge_when_checks_pass', availableAutoMergeStrategies: [], preferredAutoMergeStrategy: null, mergeUser: { username: 'root' }, state: 'opened' },
    });
    await runNextJob('success');
    await eventually(async () => (await mergeRequest(iid)).state === 'merged');
  });

  it('merges once when two evaluations race (a second merging service, as in another process)', async () => {
    const { iid } = await openWithPipeline('feature-race');
    await fx.root.MergeRequests.merge(project.id, iid, { mergeWhenPipelineSucceeds: true });
    const { app } = fx.server;
    const s = app.services;
    const quiet = { warn: () => undefined, info: () => undefined };
    const merging = createMergingDomain({
      db: app.db,
      logger: quiet,
      queue: s.queue,
      events: s.events,
      authorizer: app.authorizer,
      projects: createProjectsRepository(app.db),
      protectedBranches: s.protectedBranches,
      storage: s.storage,
      pushes: s.pushes,
      mergeRequestsService: s.mergeRequests,
      versions: s.mergeRequestVersions,
      mergeability: s.mergeability,
      externalUrl: fx.server.url,
    }).merging;
    const second = createAutoMergeService({
      db: app.db,
      repository: createAutoMergeRepository(app.db),
      queue: s.queue,
      events: s.events,
      logger: quiet,
      mergeRequestsService: s.mergeRequests,
      mergeRequests: createMergeRequestsRepository(app.db, { events: s.events }),
      projects: createProjectsRepository(app.db),
      merging,
      mergeability: s.mergeability,
      headPipelineStatuses: async (list) => {
        const map = new Map();
        for (const mr of list) {
          const head = (await mergeRequest(mr.iid)).head_pipeline;
          if (head) map.set(mr.id, head.status);
        }
        return map;
      },
      hasPipelines: async () => true,
      trains: NO_MERGE_TRAINS,
    });
    const id = (await mergeRequest(iid)).id as number;
    await runNextJob('success');
    await eventually(async () => (await mergeRequest(iid)).head_pipeline?.status === 'success');
    // this process's queue evaluates too (enqueued by the job's transaction); race it twice more
    const outcomes = await Promise.all([second.evaluate(id), second.evaluate(id), s.autoMerge.evaluate(id)]);
    await eventually(async () => (await mergeRequest(iid)).state === 'merged');
    expect(outcomes.filter((outcome) => outcome === 'merged').length).toBeLessThanOrEqual(1);
    expect(await countRows(fx.server, 'merge_intents', `merge_request_id = $1 AND state = 'done'`, [id])).toBe(1);
    expect(await countRows(fx.server, 'merge_request_events', `merge_request_id = $1 AND action = 'merged'`, [id])).toBe(1);
    expect((await systemNotes(iid)).filter((body) => body === 'merged')).toHaveLength(1);
  });
});
