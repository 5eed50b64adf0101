/**
 * A merge request while it is a car on its merge train, end to end (real git pushes, train
 * pipelines run by a runner speaking the runner protocol):
 * - its auto-merge is the train's, as GitLab shows it: REST merge_when_pipeline_succeeds and
 *   merge_user, GraphQL autoMergeEnabled, autoMergeStrategy `merge_train` and mergeUser, for a car
 *   added through the API as for one handed over by auto-merge; it all clears when it leaves;
 * - the options chosen when it was added (merge and squash commit messages, squash, delete the
 *   source branch) build its train commit and its merge, from `PUT …/merge` with auto-merge and
 *   from GraphQL's mergeRequestAccept;
 * - the page of every car whose position changes hears it: subscribed as the web app is (a
 *   session cookie over graphql-ws), the second car's page receives index 0 once the front car
 *   merged.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mergeRequestGlobalId } from '@tributary/contracts';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { mergeTrainFixtures, type MergeTrainFixtures } from '../../../test-support/merge-train-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import { graphql, signIn, subscribe, wsClient } from '../../graphql/testing.js';

/** The merge status subscription with the merge train position the widget reads (MergeTrainPosition, MergeTrainCarIndex, MergeTrainCarCount). */
const POSITION_SUBSCRIPTION = /* GraphQL */ `
  subscription mergeRequestMergeStatusUpdated($issuableId: IssuableID!) {
    mergeRequestMergeStatusUpdated(issuableId: $issuableId) {
      ... on MergeRequest {
        id
        detailedMergeStatus
        commitCount
        autoMergeEnabled
        mergeTrainIndex
        mergeTrainsCount
        mergeTrainCar {
          id
          index
        }
      }
    }
  }
`;

describe(`merge train cars (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  const trains: MergeTrainFixtures[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.dispose();
  });
  afterAll(async () => {
    for (const train of trains) await train.close();
    await fx?.close();
  });

  async function newTrain(name: string): Promise<MergeTrainFixtures> {
    const train = await mergeTrainFixtures(fx, name);
    trains.push(train);
    return train;
  }
  const merged = (t: MergeTrainFixtures, iid: number) => async () => ((await t.mergeRequest(iid)).state === 'merged' ? true : null);
  const autoMergeOf = async (t: MergeTrainFixtures, iid: number) =>
    (
      await graphql(
        fx.server.url,
        'query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { autoMergeEnabled autoMergeStrategy availableAutoMergeStrategies mergeUser { username } } } }',
        { p: t.project.path_with_namespace, iid: String(iid) },
        { token: fx.server.root.token },
      )
    ).body.data.project.mergeRequest;
  /** A merge request whose merged results pipeline passed and that may be merged now. */
  async function openPassing(t: MergeTrainFixtures, branch: string, file: string): Promise<number> {
    const iid = await t.openMergeRequest(branch, file);
    await eventually(
      async () => {
        await t.drainJobs();
        const mr = await t.mergeRequest(iid);
        return mr.head_pipeline?.status === 'success' && mr.detailed_merge_status === 'mergeable';
      },
      { what: `!${iid} mergeable with its pipeline passed` },
    );
    return iid;
  }
  const git = (t: MergeTrainFixtures, args: string[]) => execFileSync('git', ['-C', t.repoPath, ...args], { encoding: 'utf8' });
  const branchExists = (t: MergeTrainFixtures, branch: string) => git(t, ['for-each-ref', `refs/heads/${branch}`]).trim() !== '';

  it('a car’s auto-merge is the train’s (merge_train, its adder the merge user) on every surface, until it leaves', async () => {
    const t = await newTrain('car-auto-merge');
    const developer = await fx.server.createUser();
    expect((await fx.call('POST', `/projects/${t.project.id}/members`, { body: { user_id: developer.id, access_level: 40 } })).status).toBe(201);
    const [front, back] = [await openPassing(t, 'feature-front', 'front.txt'), await openPassing(t, 'feature-back', 'back.txt')];
    expect((await t.addToTrain(front)).status).toBe(201);
    expect((await t.addToTrain(back, {}, developer.token)).status).toBe(201);

    // REST, as GitLab's entity for a request on a train
    expect(await t.mergeRequest(back)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: developer.username } });
    const list = await fx.call<Array<Record<string, any>>>('GET', `/projects/${t.project.id}/merge_requests?state=opened`);
    expect(list.body.find((mr) => mr.iid === back)).toMatchObject({ merge_when_pipeline_succeeds: true, merge_user: { username: developer.username } });
    // GraphQL: enabled, merge_train, nothing more to set
    expect(await autoMergeOf(t, back)).toEqual({ autoMergeEnabled: true, autoMergeStrategy: 'merge_train', availableAutoMergeStrategies: [], mergeUser: { username: developer.username } });
    expect(await autoMergeOf(t, front)).toMatchObject({ autoMergeEnabled: true, autoMergeStrategy: 'merge_train', mergeUser: { username: 'root' } });
    // the widget data the page polls when its WebSocket is down says the same
    const widget = await fetch(`${fx.server.url}/${t.project.path_with_namespace}/-/merge_requests/${back}/widget.json`, { headers: { 'private-token': fx.server.root.token } });
    expect(await widget.json()).toMatchObject({ auto_merge_enabled: true, auto_merge_strategy: 'merge_train', available_auto_merge_strategies: [], merge_user: { username: developer.username } });

    // Setting auto-merge again on a car changes nothing: it stays where it is, merged by its train.
    const again = await fx.call<Record<string, any>>('PUT', `/projects/${t.project.id}/merge_requests/${back}/merge`, { body: { auto_merge: true } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: developer.username } });
    const train = await fx.call<Array<Record<string, any>>>('GET', `/projects/${t.project.id}/merge_trains/main?scope=active&sort=asc`);
    expect(train.body.map((car) => car.merge_request.iid)).toEqual([front, back]);

    // Off the train ('Remove from merge train'): nothing set any more.
    expect((await fx.call('POST', `/projects/${t.project.id}/merge_requests/${back}/cancel_merge_when_pipeline_succeeds`)).status).toBe(201);
    expect(await t.mergeRequest(back)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false, merge_user: null });
    expect(await autoMergeOf(t, back)).toMatchObject({ autoMergeEnabled: false, autoMergeStrategy: null, mergeUser: null });

    // The front car merges: who merged it is its merge user, and auto-merge is over.
    await t.runUntil(() => 'success', merged(t, front), 'the front car merged');
    expect(await t.mergeRequest(front)).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false, merge_user: { username: 'root' }, merged_by: { username: 'root' } });
    expect(await autoMergeOf(t, front)).toMatchObject({ autoMergeEnabled: false, autoMergeStrategy: null, mergeUser: { username: 'root' } });
  });

  it('POST …/merge_trains/merge_requests/:iid with when_pipeline_succeeds: 202 while the pipeline runs, a car once it passed; 201 at once when it passed already', async () => {
    const t = await newTrain('car-when-pipeline-succeeds');
    const waiting = await t.openMergeRequest('feature-waiting', 'waiting.txt');
    await eventually(async () => (await t.mergeRequest(waiting)).head_pipeline?.status === 'pending', { what: 'the merged results pipeline pending' });
    const later = await t.addToTrain(waiting, { when_pipeline_succeeds: true });
    expect(later.status).toBe(202);
    expect(later.body).toEqual([]);
    expect(await autoMergeOf(t, waiting)).toMatchObject({ autoMergeEnabled: true, autoMergeStrategy: 'add_to_merge_train_when_checks_pass' });
    expect((await t.car(waiting)).status).toBe(404);
    // once its pipeline passed it is a car, then merged by its train
    await t.runUntil(() => 'success', merged(t, waiting), 'the request merged by its train');
    expect(await t.notes(waiting)).toContain('started a merge train');

    const ready = await openPassing(t, 'feature-ready', 'ready.txt');
    const now = await t.addToTrain(ready, { auto_merge: true });
    expect(now.status).toBe(201);
    expect(now.body.map((car) => car.merge_request.iid)).toContain(ready);
    expect((await t.addToTrain(ready, { when_pipeline_succeeds: true })).status).toBe(400);
  });

  it('skip_merge_train where the project allows it: merged at once, kept in the train’s history as skip_merged; the car on the train still merges', async () => {
    const t = await newTrain('car-skip-train');
    expect((await fx.call('PUT', `/projects/${t.project.id}`, { body: { merge_trains_skip_train_allowed: true } })).status).toBe(200);
    const [onTrain, skipper] = [await openPassing(t, 'feature-riding', 'riding.txt'), await openPassing(t, 'feature-skipping', 'skipping.txt')];
    expect((await t.addToTrain(onTrain)).status).toBe(201);
    const skip = await fx.call<Record<string, any>>('PUT', `/projects/${t.project.id}/merge_requests/${skipper}/merge`, { body: { skip_merge_train: true } });
    expect(skip.status).toBe(200);
    expect(skip.body).toMatchObject({ state: 'merged' });
    const history = await fx.call<Array<Record<string, any>>>('GET', `/projects/${t.project.id}/merge_trains/main?scope=complete`);
    expect(history.body.map((car) => [car.merge_request.iid, car.status])).toEqual([[skipper, 'skip_merged']]);
    expect(await t.notes(skipper)).toContain('merged this merge request immediately, skipping the merge train');
    await t.runUntil(() => 'success', merged(t, onTrain), 'the car on the train merged on the new target');
    expect(t.filesOf(t.tipOf('main'))).toEqual(expect.arrayContaining(['riding.txt', 'skipping.txt']));
  });

  it('a car keeps the options chosen with auto-merge: its commit messages, squash, and the source branch removed after its merge', async () => {
    const t = await newTrain('car-options');
    const iid = await openPassing(t, 'feature-options', 'options.txt');
    const set = await fx.call<Record<string, any>>('PUT', `/projects/${t.project.id}/merge_requests/${iid}/merge`, {
      body: { auto_merge: true, squash: true, merge_commit_message: 'Train merge of the options', squash_commit_message: 'Options, squashed', should_remove_source_branch: true },
    });
    expect(set.status).toBe(200);
    await eventually(async () => ((await t.car(iid)).status === 200 ? true : null), { what: 'the request a car' });
    expect(await autoMergeOf(t, iid)).toMatchObject({ autoMergeEnabled: true, autoMergeStrategy: 'merge_train' });

    // its train pipeline tests the commit built with those options
    const job = await eventually(async () => {
      const next = await t.requestJob();
      if (next && !next.ref.endsWith('/train')) await t.finishJob(next, 'success');
      return next?.ref.endsWith('/train') ? next : null;
    }, { what: 'the train pipeline’s job' });
    expect(git(t, ['log', '-1', '--format=%B', job.sha]).trim()).toContain('Train merge of the options');
    const squashCommit = git(t, ['rev-parse', `${job.sha}^2`]).trim();
    expect(git(t, ['log', '-1', '--format=%B', squashCommit]).trim()).toBe('Options, squashed');
    expect(git(t, ['rev-list', '--count', `${job.sha}^1..${job.sha}^2`]).trim()).toBe('1');
    await t.finishJob(job, 'success');

    await eventually(merged(t, iid), { what: 'the car merged' });
    // what landed is what was tested, and the source branch goes once the merge is done
    expect(t.tipOf('main')).toBe(job.sha);
    await eventually(async () => (branchExists(t, 'feature-options') ? null : true), { what: 'the source branch removed after the merge' });
    expect(await t.mergeRequest(iid)).toMatchObject({ state: 'merged', should_remove_source_branch: true, squash_commit_sha: squashCommit });
  });

  it('a car added with mergeRequestAccept (MERGE_TRAIN) merges with its commit message and keeps its source branch when not asked', async () => {
    const t = await newTrain('car-accept');
    const iid = await openPassing(t, 'feature-accept', 'accept.txt');
    const sha = (await t.mergeRequest(iid)).sha as string;
    const accepted = await graphql(
      fx.server.url,
      'mutation($input: MergeRequestAcceptInput!) { mergeRequestAccept(input: $input) { errors mergeRequest { autoMergeEnabled autoMergeStrategy } } }',
      { input: { projectPath: t.project.path_with_namespace, iid: String(iid), sha, strategy: 'MERGE_TRAIN', commitMessage: 'Accepted onto the train', shouldRemoveSourceBranch: false } },
      { token: fx.server.root.token },
    );
    expect(accepted.body.data.mergeRequestAccept).toEqual({ errors: [], mergeRequest: { autoMergeEnabled: true, autoMergeStrategy: 'merge_train' } });
    await t.runUntil(() => 'success', merged(t, iid), 'the car merged');
    expect(git(t, ['log', '-1', '--format=%B', 'main']).trim()).toContain('Accepted onto the train');
    expect(branchExists(t, 'feature-accept')).toBe(true);
  });

  it('the page of the second car hears its new position when the front car merges', async () => {
    const t = await newTrain('car-position-live');
    const [front, back] = [await openPassing(t, 'feature-first', 'first.txt'), await openPassing(t, 'feature-second', 'second.txt')];
    const backId = (await t.mergeRequest(back)).id as number;
    const session = await signIn(fx.server.url, 'root', fx.server.root.password);
    const client = wsClient(fx.server.url, { session });
    clients.push(client);
    const frontId = (await t.mergeRequest(front)).id as number;
    const probe = subscribe<any>(client, POSITION_SUBSCRIPTION, { issuableId: mergeRequestGlobalId(backId) });
    const frontProbe = subscribe<any>(client, POSITION_SUBSCRIPTION, { issuableId: mergeRequestGlobalId(frontId) });
    // Subscribing is asynchronous: announce the requests (what any change publishes) until messages arrive.
    await eventually(async () => {
      if (probe.errors.length || frontProbe.errors.length) throw new Error(`subscription failed: ${JSON.stringify([probe.errors, frontProbe.errors])}`);
      if (probe.messages.length > 0 && frontProbe.messages.length > 0) return true;
      for (const mergeRequestId of [backId, frontId]) await fx.server.app.events.publish('merge_request.changed', { mergeRequestId, projectId: t.project.id });
      return null;
    }, { what: 'the subscriptions live' });
    expect(probe.messages[0]!.data.mergeRequestMergeStatusUpdated).toMatchObject({ autoMergeEnabled: false, mergeTrainCar: null, mergeTrainIndex: null, mergeTrainsCount: 0 });
    expect((await t.addToTrain(front)).status).toBe(201);
    const added = performance.now();
    expect((await t.addToTrain(back)).status).toBe(201);
    const second = await eventually(
      async () => probe.messages.find((message) => message.at >= added && message.data?.mergeRequestMergeStatusUpdated.mergeTrainCar?.index === 1),
      { what: 'the second car hears it is #2 of 2' },
    );
    expect(second.data.mergeRequestMergeStatusUpdated).toMatchObject({ autoMergeEnabled: true, mergeTrainIndex: 1, mergeTrainsCount: 2 });
    // the front car's page hears the count grow, though its own place did not change
    await eventually(
      async () => frontProbe.messages.find((message) => message.at >= added && message.data?.mergeRequestMergeStatusUpdated.mergeTrainsCount === 2),
      { what: 'the front car hears the train is 2 long' },
    );

    const before = performance.now();
    await t.runUntil(() => 'success', merged(t, front), 'the front car merged');
    const moved = await eventually(
      async () => probe.messages.find((message) => message.at >= before && message.data?.mergeRequestMergeStatusUpdated.mergeTrainCar?.index === 0),
      { what: 'the second car hears it is the front car' },
    );
    expect(moved.data.mergeRequestMergeStatusUpdated).toMatchObject({ id: mergeRequestGlobalId(backId), mergeTrainIndex: 0, mergeTrainsCount: 1, mergeTrainCar: { id: expect.stringMatching(/^gid:\/\/gitlab\/MergeTrains::Car\/\d+$/), index: 0 } });
  });
});
