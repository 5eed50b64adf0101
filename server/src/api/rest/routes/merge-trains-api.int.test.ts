/**
 * GitLab's Merge Trains API through gitbeaker's MergeTrains (all, showStatus, addMergeRequest)
 * and plain calls: the car entity, scope and sort, who is refused (a stranger 404, a Reporter
 * 403 on reads and 401 on adding, a project without trains 403), bad input (409 for a stale sha,
 * 400 for a bad scope, twice on the train), twenty merge requests added at once keeping one
 * order, a `retry: when` job retried before any ejection, and a finished train pipeline's job
 * refused a retry with GitLab's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { mergeTrainFixtures, type MergeTrainFixtures } from '../../../test-support/merge-train-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';
import { graphql } from '../../graphql/testing.js';

/** The merge widget's MergeTrainPosition and MergeTrainCarCount fragments, as GitLab's frontend asks them. */
const POSITION_QUERY = `query($fullPath: ID!, $iid: String!, $targetBranches: [String!]) {
  project(fullPath: $fullPath) {
    id
    ciCdSettings { mergeTrainsEnabled mergeTrainsSkipTrainAllowed }
    mergeTrains(targetBranches: $targetBranches) { nodes { targetBranch cars { count nodes { id index status mergeRequest { iid } pipeline { id mergeRequestEventType } } } } }
    mergeRequest(iid: $iid) { id mergeTrainsCount mergeTrainIndex mergeTrainCar { id index } }
  }
}`;

const RETRY_CONFIG = ['stages: [test]', 'test:', '  stage: test', '  script: make test', '  retry:', '    max: 1', '    when: script_failure', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', ''].join('\n');

describe(`merge trains API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let t: MergeTrainFixtures;
  let stranger: TestUser;
  let reporter: TestUser;
  let developer: TestUser;
  const others: MergeTrainFixtures[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    t = await mergeTrainFixtures(fx, 'train-api');
    stranger = await fx.server.createUser();
    reporter = await fx.member(t.project.id, 20);
    developer = await fx.member(t.project.id, 30);
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await t?.close();
    await fx?.close();
  });

  it('adds a car and shows it as GitLab does; refuses strangers, Reporters, stale shas and a second car', async () => {
    const iid = await t.openMergeRequest('feature-api', 'api.txt');
    const head = (await t.mergeRequest(iid)).sha as string;
    const base = `/projects/${t.project.id}/merge_trains`;

    expect((await fx.call('GET', base, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('POST', `${base}/merge_requests/${iid}`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('GET', base, { token: reporter.token })).status).toBe(403);
    expect((await fx.call('POST', `${base}/merge_requests/${iid}`, { token: reporter.token })).status).toBe(401);
    expect((await fx.call('GET', `${base}?scope=everything`)).status).toBe(400);
    const badSort = await fx.call('GET', `${base}/main?sort=sideways`);
    expect(badSort.status).toBe(400);
    expect(badSort.body).toMatchObject({ error: expect.stringContaining('sort') });
    for (const path of [`${base}/main`, `${base}/merge_requests/${iid}`]) expect((await fx.call('GET', path, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('GET', `${base}/main`, { token: reporter.token })).status).toBe(403);
    const stale = await t.addToTrain(iid, { sha: 'a'.repeat(40) });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: `SHA does not match HEAD of source branch: ${head}` });
    expect((await t.car(iid)).status).toBe(404);

    const train = (await fx.root.MergeTrains.addMergeRequest(t.project.id, iid, { sha: head })) as unknown as Array<Record<string, any>>;
    expect(train).toHaveLength(1);
    expect(train[0]).toMatchObject({
      merge_request: { iid, project_id: t.project.id, state: 'opened', title: 'Add api.txt' },
      user: { username: 'root' },
      target_branch: 'main',
      merged_at: null,
      duration: null,
    });
    expect(Object.keys(train[0]!).sort()).toEqual(['created_at', 'duration', 'id', 'merge_request', 'merged_at', 'pipeline', 'status', 'target_branch', 'updated_at', 'user']);
    const again = await t.addToTrain(iid);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'This merge request is already on the merge train' });

    const shown = (await fx.root.MergeTrains.showStatus(t.project.id, iid)) as unknown as Record<string, any>;
    expect(shown.id).toBe(train[0]!.id);
    await eventually(async () => (await t.car(iid)).body.pipeline?.ref === `refs/merge-requests/${iid}/train`, { what: 'the train pipeline' });
    expect((await fx.call('GET', `${base}/merge_requests/${iid}`, { token: developer.token })).status).toBe(200);
    expect((await fx.call('GET', `${base}/merge_requests/${iid}`, { token: reporter.token })).status).toBe(403);
    const active = (await fx.root.MergeTrains.all(t.project.id, { scope: 'active' })) as unknown as Array<Record<string, any>>;
    expect(active.map((car) => car.merge_request.iid)).toEqual([iid]);
    expect(await fx.root.MergeTrains.all(t.project.id, { scope: 'complete' })).toEqual([]);
    expect(await t.notes(iid)).toContain('started a merge train');
  });

  it('GraphQL: a car and its position (mergeTrainCar, mergeTrainsCount), the project\'s trains; nothing for a Reporter', async () => {
    const iid = await t.openMergeRequest('feature-graphql', 'graphql.txt');
    await t.addToTrain(iid);
    await eventually(async () => (await t.car(iid)).body.pipeline, { what: 'the second car\'s pipeline' });
    const variables = { fullPath: t.project.path_with_namespace, iid: String(iid), targetBranches: ['main'] };
    const answer = await graphql(fx.server.url, POSITION_QUERY, variables, { token: fx.server.root.token });
    expect(answer.body.errors).toBeUndefined();
    const project = answer.body.data.project;
    expect(project.ciCdSettings).toEqual({ mergeTrainsEnabled: true, mergeTrainsSkipTrainAllowed: false });
    const carId = (await t.car(iid)).body.id as number;
    expect(project.mergeRequest).toMatchObject({ mergeTrainsCount: 2, mergeTrainIndex: 1, mergeTrainCar: { id: `gid://gitlab/MergeTrains::Car/${carId}`, index: 1 } });
    const [train] = project.mergeTrains.nodes;
    expect(train.targetBranch).toBe('main');
    expect(train.cars.count).toBe(2);
    expect(train.cars.nodes.map((car: any) => [car.index, car.status])).toEqual([
      [0, 'FRESH'],
      [1, 'FRESH'],
    ]);
    expect(train.cars.nodes[1]).toMatchObject({ mergeRequest: { iid: String(iid) }, pipeline: { mergeRequestEventType: 'MERGE_TRAIN' } });
    const hidden = await graphql(fx.server.url, POSITION_QUERY, variables, { token: reporter.token });
    expect(hidden.body.data.project).toMatchObject({ mergeTrains: null, mergeRequest: { mergeTrainCar: null, mergeTrainsCount: null } });
  });

  it('refuses a project that does not run merge trains (403), and needs merged results pipelines for them', async () => {
    await fx.call('PUT', `/projects/${t.project.id}`, { body: { merge_pipelines_enabled: false } });
    try {
      expect((await fx.call('GET', `/projects/${t.project.id}/merge_trains`)).status).toBe(403);
      const project = await fx.call('GET', `/projects/${t.project.id}`);
      expect(project.body).toMatchObject({ merge_trains_enabled: true, merge_pipelines_enabled: false, merge_trains_skip_train_allowed: false });
    } finally {
      await fx.call('PUT', `/projects/${t.project.id}`, { body: { merge_pipelines_enabled: true } });
    }
  });

  it('twenty merge requests added at once keep one order: one car each, positions 1 to 20 once each', async () => {
    const c = await mergeTrainFixtures(fx, 'train-twenty');
    others.push(c);
    const iids: number[] = [];
    for (let i = 0; i < 20; i++) iids.push(await c.openMergeRequest(`feature-${i}`, `file-${i}.txt`));
    const answers = await Promise.all(iids.map((iid) => c.addToTrain(iid)));
    expect(answers.map((answer) => answer.status)).toEqual(iids.map(() => 201));
    const train = (await fx.call<Array<Record<string, any>>>('GET', `/projects/${c.project.id}/merge_trains/main?sort=asc&per_page=100`)).body;
    expect(train).toHaveLength(20);
    expect(new Set(train.map((car) => car.merge_request.iid)).size).toBe(20);
    const ids = train.map((car) => car.id as number);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    // each car's note names its place in that one order
    const positions = await Promise.all(train.map(async (car) => (await c.notes(car.merge_request.iid)).find((body) => /merge train/.test(body))));
    expect(positions).toEqual(train.map((_car, index) => (index === 0 ? 'started a merge train' : `added this merge request to the merge train at position #${index + 1}`)));
    // the refresh builds each car on the one ahead, in that order
    const built = await eventually(
      async () => {
        const cars = (await fx.call<Array<Record<string, any>>>('GET', `/projects/${c.project.id}/merge_trains/main?sort=asc&per_page=100`)).body;
        return cars.every((car) => car.pipeline) ? cars : null;
      },
      { what: 'twenty train pipelines', ms: 120_000 },
    );
    // car n tests the files of the n cars ahead and its own
    expect(built.map((car) => c.filesOf(car.pipeline.sha).filter((file) => file.startsWith('file-')).length)).toEqual(built.map((_car, index) => index + 1));
  }, 240_000);

  it('a job the project marks retryable is retried before the car is judged; a finished train pipeline is not retried', async () => {
    const r = await mergeTrainFixtures(fx, 'train-retry', RETRY_CONFIG);
    others.push(r);
    const [flaky, broken] = [await r.openMergeRequest('feature-flaky', 'flaky.txt'), await r.openMergeRequest('feature-broken', 'broken.txt')];
    await r.drainJobs();
    await r.addToTrain(flaky);
    let flakyRuns = 0;
    await r.runUntil(
      (job) => (job.files.includes('flaky.txt') && flakyRuns++ === 0 ? 'failed' : 'success'),
      async () => ((await r.mergeRequest(flaky)).state === 'merged' ? true : null),
      'the flaky car merged after its retry',
    );
    expect(flakyRuns).toBe(2);
    expect((await r.notes(flaky)).some((body) => body.startsWith('removed this merge request'))).toBe(false);

    await r.addToTrain(broken);
    await r.runUntil((job) => (job.files.includes('broken.txt') ? 'failed' : 'success'), async () => ((await r.car(broken)).status === 404 ? true : null), 'the broken car ejected');
    const pipelines = (await fx.call<Array<Record<string, any>>>('GET', `/projects/${r.project.id}/pipelines?ref=refs/merge-requests/${broken}/train`)).body;
    const jobs = (await fx.call<Array<Record<string, any>>>('GET', `/projects/${r.project.id}/pipelines/${pipelines[0]!.id}/jobs?include_retried=true`)).body;
    const refused = await fx.call('POST', `/projects/${r.project.id}/jobs/${jobs[0]!.id}/retry`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Merge train pipeline jobs can not be retried' });
    expect((await fx.call('POST', `/projects/${r.project.id}/pipelines/${pipelines[0]!.id}/retry`)).status).toBe(403);
  });
});
