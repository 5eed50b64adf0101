/**
 * Auto-merge on a project with merge trains (and merged results pipelines), end to end: real
 * git pushes, pipelines run by a runner speaking the runner protocol. `PUT …/merge` with
 * `auto_merge=true` while the request's pipeline runs picks add_to_merge_train_when_checks_pass
 * (GraphQL's availableAutoMergeStrategies and autoMergeStrategy say so); when the checks pass the
 * request becomes a car and the train merges it (fast-forward to its train pipeline's commit). A
 * request whose checks already pass gets merge_train and is a car at once; cancelling its
 * auto-merge (`POST …/cancel_merge_when_pipeline_succeeds`) takes it off the train and cancels
 * its train pipeline, while the car ahead of it goes on and merges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { mergeTrainFixtures, type MergeTrainFixtures } from '../../../../test-support/merge-train-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { countRows } from '../../../../test-support/rest-fixtures.js';
import { graphql } from '../../../graphql/testing.js';

describe(`auto-merge with merge trains (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let t: MergeTrainFixtures;

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    t = await mergeTrainFixtures(fx, 'auto-merge-trains');
  });
  afterAll(async () => {
    await t?.close();
    await fx?.close();
  });

  const path = (iid: number) => `/projects/${t.project.id}/merge_requests/${iid}`;
  const strategies = async (iid: number) =>
    (
      await graphql(
        fx.server.url,
        'query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { autoMergeEnabled autoMergeStrategy availableAutoMergeStrategies preferredAutoMergeStrategy } } }',
        { p: t.project.path_with_namespace, iid: String(iid) },
        { token: fx.server.root.token },
      )
    ).body.data.project.mergeRequest;
  const position = async (iid: number) =>
    (
      await graphql(fx.server.url, 'query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { mergeTrainCar { index } mergeTrainsCount } } }', { p: t.project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token })
    ).body.data.project.mergeRequest;
  const merged = (iid: number) => async () => ((await t.mergeRequest(iid)).state === 'merged' ? true : null);
  /** A merge request whose merged results pipeline passed and that may be merged now. */
  async function openPassing(branch: string, file: string): Promise<number> {
    const iid = await t.openMergeRequest(branch, file);
    await eventually(async () => {
      await t.drainJobs();
      const mr = await t.mergeRequest(iid);
      return mr.head_pipeline?.status === 'success' && mr.detailed_merge_status === 'mergeable';
    }, { what: `!${iid} mergeable with its pipeline passed` });
    return iid;
  }

  it('while the pipeline runs: add_to_merge_train_when_checks_pass; when it passes the request becomes a car and the train merges it', async () => {
    const iid = await t.openMergeRequest('feature-wait', 'wait.txt');
    await eventually(async () => (await t.mergeRequest(iid)).head_pipeline?.status === 'pending', { what: 'the merged results pipeline pending' });
    expect(await strategies(iid)).toEqual({ autoMergeEnabled: false, autoMergeStrategy: null, availableAutoMergeStrategies: ['add_to_merge_train_when_checks_pass'], preferredAutoMergeStrategy: 'add_to_merge_train_when_checks_pass' });

    const set = await fx.call<Record<string, any>>('PUT', `${path(iid)}/merge`, { body: { auto_merge: true } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'root' } });
    expect(await strategies(iid)).toMatchObject({ autoMergeEnabled: true, autoMergeStrategy: 'add_to_merge_train_when_checks_pass' });
    // not a car while its checks wait
    expect((await t.car(iid)).status).toBe(404);

    // the merged results pipeline passes: handed to the train, whose pipeline passes: merged
    await t.runUntil(() => 'success', merged(iid), 'the request merged by its train');
    const car = (await t.car(iid)).body;
    expect(car).toMatchObject({ status: 'merged', merge_request: { iid, state: 'merged' }, user: { username: 'root' }, pipeline: { status: 'success', ref: `refs/merge-requests/${iid}/train` } });
    // what was merged is what the train tested
    expect(t.tipOf('main')).toBe(car.pipeline.sha);
    expect(await t.notes(iid)).toContain('started a merge train');
    expect(await countRows(fx.server, 'merge_request_auto_merges', 'merge_request_id = $1', [car.merge_request.id])).toBe(0);
  });

  it('with the checks passed: merge_train adds it at once; cancelling a car’s auto-merge takes it off the train and cancels its pipeline', async () => {
    const [front, back] = [await openPassing('feature-front', 'front.txt'), await openPassing('feature-back', 'back.txt')];
    expect(await strategies(front)).toEqual({ autoMergeEnabled: false, autoMergeStrategy: null, availableAutoMergeStrategies: ['merge_train'], preferredAutoMergeStrategy: 'merge_train' });

    for (const iid of [front, back]) {
      const set = await fx.call('PUT', `${path(iid)}/merge`, { body: { auto_merge: true } });
      expect(set.status).toBe(200);
      await eventually(async () => ((await t.car(iid)).status === 200 ? true : null), { what: `!${iid} a car` });
    }
    expect(await t.notes(front)).toContain('started a merge train');
    expect(await t.notes(back)).toContain('added this merge request to the merge train at position #2');
    // what the widget reads for its position text (MergeTrainPosition)
    expect(await position(front)).toEqual({ mergeTrainCar: { index: 0 }, mergeTrainsCount: 2 });
    expect(await position(back)).toEqual({ mergeTrainCar: { index: 1 }, mergeTrainsCount: 2 });
    const backPipeline = await eventually(async () => (await t.car(back)).body.pipeline?.id as number | undefined, { what: "the back car's train pipeline" });

    const cancelled = await fx.call<Record<string, any>>('POST', `${path(back)}/cancel_merge_when_pipeline_succeeds`);
    expect(cancelled.status).toBe(201);
    expect(cancelled.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    expect((await t.car(back)).status).toBe(404);
    expect(await position(back)).toEqual({ mergeTrainCar: null, mergeTrainsCount: 1 });
    expect(await t.notes(back)).toContain('removed this merge request from the merge train');
    await eventually(async () => (await fx.call<Record<string, any>>('GET', `/projects/${t.project.id}/pipelines/${backPipeline}`)).body.status === 'canceled', { what: 'the removed car’s pipeline canceled' });
    // nothing left to cancel
    expect((await fx.call('POST', `${path(back)}/cancel_merge_when_pipeline_succeeds`)).status).toBe(406);

    await t.runUntil(() => 'success', merged(front), 'the front car merged');
    expect((await t.mergeRequest(back)).state).toBe('opened');
    expect(t.filesOf(t.tipOf('main'))).toContain('front.txt');
    expect(t.filesOf(t.tipOf('main'))).not.toContain('back.txt');
  });
});
