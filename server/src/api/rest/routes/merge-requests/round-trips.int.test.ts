import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { roundTripCounter } from '../../../../test-support/round-trips.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import type { TestUser } from '../../../../test-support/server.js';

/**
 * Database round trips per request of the endpoints GitLab's clients poll: a warm
 * GET …/merge_requests/:iid or list answers from the per-process cached reads
 * (domains/merge-requests/cached-reads.ts). Counted, not timed: every statement sent while
 * one request is handled (a transaction counts its BEGIN and COMMIT too).
 */
describe(`merge request REST round trips (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number };
  let developer: TestUser;
  let rounds: ReturnType<typeof roundTripCounter>;

  /** One GET through the app (in-process), and the statements it sent. */
  async function get(url: string, token: string): Promise<{ status: number; body: string; roundTrips: number }> {
    const { value: response, roundTrips } = await rounds.count(() => fx.server.app.http.inject({ method: 'GET', url, headers: { 'private-token': token } }));
    return { status: response.statusCode, body: response.body, roundTrips };
  }

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('mr-round-trips');
    developer = await fx.member(project.id, 30);
    for (const name of ['feature', 'other']) {
      const parent = await fx.tip(project.id, 'main');
      await fx.setBranch(project.id, name, await fx.writeCommit(project.id, { parent, files: [{ path: `${name}.txt`, content: `${name}\n` }], message: `Add ${name}` }));
      const created = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests`, {
        method: 'POST',
        headers: { 'private-token': developer.token, 'content-type': 'application/json' },
        body: JSON.stringify({ source_branch: name, target_branch: 'main', title: `Add ${name}`, assignee_ids: [developer.id], reviewer_ids: [fx.server.root.id] }),
      });
      expect(created.status).toBe(201);
    }
    const note = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests/1/notes`, {
      method: 'POST',
      headers: { 'private-token': developer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Looks good' }),
    });
    expect(note.status).toBe(201);
    const award = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests/1/award_emoji`, {
      method: 'POST',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'thumbsup' }),
    });
    expect(award.status).toBe(201);
    // the follow-up work of those writes (mergeability, auto-merge evaluation) is done before counting,
    // so no background write invalidates the cache between the cold and the warm read
    await fx.server.app.queue.drain();
    rounds = roundTripCounter(fx.server.app.db);
  });
  afterAll(() => fx?.close());

  it.each([
    ['the single merge request', (id: number) => `/api/v4/projects/${id}/merge_requests/1`],
    ['the project list', (id: number) => `/api/v4/projects/${id}/merge_requests`],
    ['the list of all the caller may see', () => `/api/v4/merge_requests?scope=all`],
  ])('answers %s warm without a round trip, and the same bytes', async (_name, url) => {
    const cold = await get(url(project.id), developer.token);
    expect(cold.status).toBe(200);
    const warm = await get(url(project.id), developer.token);
    expect(warm.status).toBe(200);
    expect(warm.body).toBe(cold.body);
    // the counter sees the database: the first read after the fixtures' writes goes there
    expect(cold.roundTrips).toBeGreaterThan(0);
    expect(warm.roundTrips).toBe(0);
  });

  it('reads again after a write: a new vote, note and title show at once', async () => {
    const url = `/api/v4/projects/${project.id}/merge_requests/1`;
    await get(url, developer.token);
    const award = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests/1/award_emoji`, {
      method: 'POST',
      headers: { 'private-token': developer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'thumbsdown' }),
    });
    expect(award.status).toBe(201);
    const renamed = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests/1`, {
      method: 'PUT',
      headers: { 'private-token': developer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed' }),
    });
    expect(renamed.status).toBe(200);
    const after = JSON.parse((await get(url, developer.token)).body);
    expect(after).toMatchObject({ title: 'Renamed', upvotes: 1, downvotes: 1, user_notes_count: 1 });
    const list = JSON.parse((await get(`/api/v4/projects/${project.id}/merge_requests`, developer.token)).body);
    expect(list.find((mr: { iid: number }) => mr.iid === 1)).toMatchObject({ title: 'Renamed', downvotes: 1 });
  });

  it('reads again after a label is added and a milestone set: the labels and milestone tables are watched', async () => {
    const url = `/api/v4/projects/${project.id}/merge_requests/1`;
    const listUrl = `/api/v4/projects/${project.id}/merge_requests`;
    await get(url, developer.token);
    await get(listUrl, developer.token);
    const label = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/labels`, {
      method: 'POST',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'perf', color: '#ff0000' }),
    });
    expect(label.status).toBe(201);
    const milestone = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/milestones`, {
      method: 'POST',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'v1' }),
    });
    expect(milestone.status).toBe(201);
    const labelled = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/merge_requests/1`, {
      method: 'PUT',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ add_labels: 'perf', milestone_id: ((await milestone.json()) as { id: number }).id }),
    });
    expect(labelled.status).toBe(200);
    expect(JSON.parse((await get(url, developer.token)).body)).toMatchObject({ labels: ['perf'], milestone: { title: 'v1' } });
    const listed = JSON.parse((await get(listUrl, developer.token)).body);
    expect(listed.find((mr: { iid: number }) => mr.iid === 1)).toMatchObject({ labels: ['perf'], milestone: { title: 'v1' } });

    // A label renamed is a write to labels alone: the kept answers go.
    const renamed = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/labels/perf`, {
      method: 'PUT',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ new_name: 'speed' }),
    });
    expect(renamed.status).toBe(200);
    expect(JSON.parse((await get(url, developer.token)).body)).toMatchObject({ labels: ['speed'] });
    expect(JSON.parse((await get(listUrl, developer.token)).body).find((mr: { iid: number }) => mr.iid === 1)).toMatchObject({ labels: ['speed'] });
  });

  it('keeps answers per caller, and a role change shows at once (can_merge)', async () => {
    const url = `/api/v4/projects/${project.id}/merge_requests/1`;
    const reporter = await fx.member(project.id, 20);
    const rootView = await get(url, fx.server.root.token);
    expect(JSON.parse(rootView.body).user).toEqual({ can_merge: true });
    const before = await get(url, reporter.token);
    expect(JSON.parse(before.body).user).toEqual({ can_merge: false });
    expect((await get(url, reporter.token)).roundTrips).toBe(0);
    const promoted = await fetch(`${fx.server.url}/api/v4/projects/${project.id}/members/${reporter.id}`, {
      method: 'PUT',
      headers: { 'private-token': fx.server.root.token, 'content-type': 'application/json' },
      body: JSON.stringify({ access_level: 40 }),
    });
    expect(promoted.status).toBe(200);
    expect(JSON.parse((await get(url, reporter.token)).body).user).toEqual({ can_merge: true });
    // root's kept answer was never the reporter's
    expect(JSON.parse((await get(url, fx.server.root.token)).body).user).toEqual({ can_merge: true });
  });

  it('answers exactly application/json, as GitLab does', async () => {
    const response = await fx.server.app.http.inject({ method: 'GET', url: `/api/v4/projects/${project.id}/merge_requests/1`, headers: { 'private-token': developer.token } });
    expect(response.headers['content-type']).toBe('application/json');
    const list = await fx.server.app.http.inject({ method: 'GET', url: `/api/v4/projects/${project.id}/merge_requests?per_page=1`, headers: { 'private-token': developer.token } });
    expect(list.headers['content-type']).toBe('application/json');
    expect(list.headers['x-total']).toBe('2');
    expect(JSON.parse(list.body)).toHaveLength(1);
  });

  it('still refuses a stranger (404) when the answer is cached', async () => {
    const stranger = await fx.server.createUser();
    const url = `/api/v4/projects/${project.id}/merge_requests/1`;
    expect((await get(url, developer.token)).status).toBe(200);
    expect((await get(url, stranger.token)).status).toBe(404);
  });
});
