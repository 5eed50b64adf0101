/**
 * Merge trains end to end: real git pushes, merge train pipelines run by a runner speaking the
 * runner protocol, whose verdict depends on the files of the commit it tests. Which car leaves
 * the train, and when (the ejection rule, domains/merge-trains/ejection-rule.ts): three cars
 * where the middle one breaks the build (only the middle leaves); a car that fails only together
 * with the one ahead (held, not ejected; the one ahead leaves, it restarts and passes); a push to
 * a car's source branch (it leaves); a merge immediately (the train restarts on the new target).
 * Each scenario has its own project, so its train is its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { eventually } from '../../../test-support/eventually.js';
import { mergeTrainFixtures, type MergeTrainFixtures, type RunnerJob } from '../../../test-support/merge-train-fixtures.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';

describe(`merge trains (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  const trains: MergeTrainFixtures[] = [];

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
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

  it('three cars where the middle one breaks the build: only the middle leaves, the others merge what was tested', async () => {
    const t = await newTrain('train-middle-breaks');
    const [a, b, c] = [await t.openMergeRequest('feature-a', 'a.txt'), await t.openMergeRequest('feature-b', 'broken-b.txt'), await t.openMergeRequest('feature-c', 'c.txt')];
    await t.drainJobs();
    for (const iid of [a, b, c]) expect((await t.addToTrain(iid)).status).toBe(201);
    const train = await fx.call<Array<Record<string, any>>>('GET', `/projects/${t.project.id}/merge_trains/main?sort=asc`);
    expect(train.body.map((car) => car.merge_request.iid)).toEqual([a, b, c]);

    const tested: RunnerJob[] = [];
    const breaks = (job: RunnerJob) => {
      tested.push(job);
      return job.files.includes('broken-b.txt') ? 'failed' : 'success';
    };
    await t.runUntil(breaks, async () => (await merged(t, a)()) && (await merged(t, c)()), 'a and c merged');

    expect((await t.mergeRequest(b)).state).toBe('opened');
    const bNotes = await t.notes(b);
    expect(bNotes.some((body) => body.startsWith('removed this merge request from the merge train because the pipeline did not succeed: job `test` failed') && body.includes('FAIL: the build is broken'))).toBe(true);
    for (const iid of [a, c]) expect((await t.notes(iid)).some((body) => body.startsWith('removed this merge request'))).toBe(false);
    // main is exactly C's last train commit: what was merged is what was tested
    const cCar = (await t.car(c)).body;
    expect(cCar).toMatchObject({ status: 'merged', target_branch: 'main', merge_request: { iid: c, state: 'merged' }, pipeline: { status: 'success', ref: `refs/merge-requests/${c}/train`, source: 'merge_request_event' } });
    expect(t.tipOf('main')).toBe(cCar.pipeline.sha);
    expect(t.filesOf(t.tipOf('main'))).toEqual(expect.arrayContaining(['a.txt', 'c.txt']));
    expect(t.filesOf(t.tipOf('main'))).not.toContain('broken-b.txt');
    // C ran first on A+B+C (failed, held, not ejected), then restarted on A+C
    expect(tested.some((job) => job.iid === c && job.files.includes('broken-b.txt'))).toBe(true);
    expect(tested.some((job) => job.iid === c && !job.files.includes('broken-b.txt'))).toBe(true);
    const complete = await fx.call<Array<Record<string, any>>>('GET', `/projects/${t.project.id}/merge_trains?scope=complete&sort=asc`);
    expect(complete.body.map((car) => [car.merge_request.iid, car.status])).toEqual([
      [a, 'merged'],
      [c, 'merged'],
    ]);
  });

  it('a car that fails only together with the one ahead is held, then restarts without it and passes', async () => {
    const t = await newTrain('train-fails-together');
    const [a, b] = [await t.openMergeRequest('feature-a', 'broken-a.txt'), await t.openMergeRequest('feature-b', 'b.txt')];
    await t.drainJobs();
    expect((await t.addToTrain(a)).status).toBe(201);
    expect((await t.addToTrain(b)).status).toBe(201);
    // both cars' pipelines are pending: the runner takes both, and reports B first
    const jobs: RunnerJob[] = [];
    await eventually(async () => {
      const job = await t.requestJob();
      if (job) jobs.push(job);
      return jobs.length === 2;
    }, { what: 'both train jobs' });
    const jobOf = (iid: number) => jobs.find((job) => job.iid === iid)!;
    expect(jobOf(b).files).toEqual(expect.arrayContaining(['broken-a.txt', 'b.txt']));
    await t.finishJob(jobOf(b), 'failed');
    // B failed while A still runs: GitLab would eject B now; Tributary holds it
    await eventually(async () => (await fx.call('GET', `/projects/${t.project.id}/merge_trains/merge_requests/${b}`)).body.pipeline?.status === 'failed', { what: "B's pipeline failed" });
    await fx.server.app.queue.drain();
    expect((await t.car(b)).body.status).toBe('fresh');
    expect((await t.notes(b)).some((body) => body.startsWith('removed this merge request'))).toBe(false);

    await t.finishJob(jobOf(a), 'failed');
    await t.runUntil((job) => (job.files.includes('broken-a.txt') ? 'failed' : 'success'), merged(t, b), 'B merged without A');
    expect((await t.mergeRequest(a)).state).toBe('opened');
    expect((await t.notes(a)).some((body) => body.startsWith('removed this merge request from the merge train because the pipeline did not succeed'))).toBe(true);
    expect((await t.notes(b)).some((body) => body.startsWith('removed this merge request'))).toBe(false);
    expect(t.filesOf(t.tipOf('main'))).not.toContain('broken-a.txt');
  });

  it('a push to a car’s source branch takes it off the train; the car behind restarts without it', async () => {
    const t = await newTrain('train-push');
    const [a, b] = [await t.openMergeRequest('feature-a', 'a.txt'), await t.openMergeRequest('feature-b', 'b.txt')];
    await t.drainJobs();
    await t.addToTrain(a);
    await t.addToTrain(b);
    const firstB = await eventually(async () => (await t.car(b)).body.pipeline?.id as number | undefined, { what: "B's first train pipeline" });
    await t.pushBranch('feature-a', 'a2.txt', 'more\n', 'feature-a');
    await eventually(async () => ((await t.car(a)).status === 404 ? true : null), { what: 'A off the train' });
    expect(await t.notes(a)).toContain('removed this merge request from the merge train because the source branch was updated');
    const secondB = await eventually(async () => {
      const id = (await t.car(b)).body.pipeline?.id as number | undefined;
      return id !== undefined && id !== firstB ? id : null;
    }, { what: "B's restarted pipeline" });
    expect(secondB).toBeGreaterThan(firstB);
    await t.runUntil(() => 'success', merged(t, b), 'B merged');
    expect(t.filesOf(t.tipOf('main'))).not.toContain('a.txt');
  });

  it('merge immediately restarts the train on the new target; skipping it needs the project setting', async () => {
    const t = await newTrain('train-merge-immediately');
    const [a, b, c] = [await t.openMergeRequest('feature-a', 'a.txt'), await t.openMergeRequest('feature-b', 'b.txt'), await t.openMergeRequest('feature-c', 'c.txt')];
    await t.drainJobs();
    await t.addToTrain(a);
    await t.addToTrain(b);
    const before = await eventually(async () => {
      const [carA, carB] = [(await t.car(a)).body, (await t.car(b)).body];
      return carA.pipeline && carB.pipeline ? [carA.pipeline.id, carB.pipeline.id] : null;
    }, { what: 'both train pipelines' });

    const skip = await fx.call('PUT', `/projects/${t.project.id}/merge_requests/${c}/merge`, { body: { skip_merge_train: true } });
    expect(skip.status).toBe(400);
    expect((await t.mergeRequest(c)).state).toBe('opened');
    const immediately = await fx.call('PUT', `/projects/${t.project.id}/merge_requests/${c}/merge`, { body: {} });
    expect(immediately.status).toBe(200);

    const after = await eventually(async () => {
      const [carA, carB] = [(await t.car(a)).body, (await t.car(b)).body];
      return carA.pipeline && carB.pipeline && carA.pipeline.id !== before[0] && carB.pipeline.id !== before[1] ? [carA.pipeline.id, carB.pipeline.id] : null;
    }, { what: 'both cars restarted' });
    for (const old of before) expect((await fx.call('GET', `/projects/${t.project.id}/pipelines/${old}`)).body.status).toBe('canceled');
    expect(after).toHaveLength(2);
    await t.runUntil(() => 'success', async () => (await merged(t, a)()) && (await merged(t, b)()), 'A and B merged');
    expect(t.filesOf(t.tipOf('main'))).toEqual(expect.arrayContaining(['a.txt', 'b.txt', 'c.txt']));
  });
});
