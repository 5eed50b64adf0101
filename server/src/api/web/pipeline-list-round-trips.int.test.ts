/**
 * The pipeline and job lists read a fixed number of times whatever their page size: a page of 100
 * pipelines (or jobs) costs the database round trips a page of 20 costs. Counted, not timed. The
 * pipelines span branches, tags and two triggerers, so a per-row read of a user, a commit, a ref's
 * protection or a pipeline's jobs would show as a difference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { roundTripCounter } from '../../test-support/round-trips.js';
import type { TestUser } from '../../test-support/server.js';

const CONFIG = `stages: [build, test]
build:
  stage: build
  script: [make]
test:
  stage: test
  script: [make test]
  artifacts:
    paths: [out]
`;
const PIPELINES = 101;
/** More refs than a page of 20 jobs reaches: a read per ref would cost the larger page more. */
const REFS = [...Array.from({ length: 20 }, (_, i) => ({ name: `b${i}`, tag: false })), ...Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, tag: true }))];

describe(`pipeline and job lists: round trips independent of the page size (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let counter: ReturnType<typeof roundTripCounter>;

  async function get(url: string, token: string) {
    const { value, roundTrips } = await counter.count(() => fx.server.app.http.inject({ method: 'GET', url, headers: { 'private-token': token } }));
    expect(value.statusCode, value.body).toBe(200);
    return { body: JSON.parse(value.body) as Record<string, any>[], headers: value.headers, roundTrips };
  }

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('list-round-trips');
    developer = await fx.member(project.id, 40);
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    for (const ref of REFS) {
      if (ref.tag) await fx.root.Tags.create(project.id, ref.name, 'main');
      else await fx.root.Branches.create(project.id, ref.name, 'main');
    }
    await fx.server.app.queue.drain();
    for (let i = 0; i < PIPELINES; i++) {
      const ref = REFS[i % REFS.length]!;
      const created = await fx.call('POST', `/projects/${project.id}/pipeline`, { token: i % 2 === 0 ? fx.server.root.token : developer.token, body: { ref: ref.name } });
      expect(created.status).toBe(201);
    }
    // the follow-up work of those writes is done before counting
    await fx.server.app.queue.drain();
    counter = roundTripCounter(fx.server.app.db);
  }, 300_000);
  afterAll(() => fx?.close());

  it.each([
    ['GET /projects/:id/pipelines', (perPage: number) => `/api/v4/projects/${project.id}/pipelines?per_page=${perPage}`],
    ['the pipelines page (…/-/pipelines.json)', (perPage: number) => `/${project.path_with_namespace}/-/pipelines.json?per_page=${perPage}`],
    ['GET /projects/:id/jobs', (perPage: number) => `/api/v4/projects/${project.id}/jobs?per_page=${perPage}`],
  ])('%s: a page of 100 costs what a page of 20 costs', async (_name, url) => {
    // a first request warms what every request shares (the caller's token, the project)
    await get(url(5), developer.token);
    const small = await get(url(20), developer.token);
    const large = await get(url(100), developer.token);
    expect([small.body.length, large.body.length]).toEqual([20, 100]);
    expect(large.roundTrips).toBe(small.roundTrips);
    expect(small.roundTrips).toBeLessThanOrEqual(12);
  });

  it('answers the pipelines page as the API answers each pipeline and its jobs', async () => {
    const listed = await get(`/${project.path_with_namespace}/-/pipelines.json?per_page=3&page=2`, developer.token);
    expect(listed.headers['x-total']).toBe((await fx.call('GET', `/projects/${project.id}/pipelines`, { token: developer.token })).headers.get('x-total'));
    expect(listed.headers['x-page']).toBe('2');
    expect(listed.body).toHaveLength(3);
    for (const row of listed.body) {
      const { jobs, ...pipeline } = row;
      expect(pipeline).toEqual((await fx.call('GET', `/projects/${project.id}/pipelines/${row.id}`, { token: developer.token })).body);
      const apiJobs = (await fx.call<Record<string, any>[]>('GET', `/projects/${project.id}/pipelines/${row.id}/jobs`, { token: developer.token })).body;
      // a pending job's queued_duration grows between the two reads
      const timeless = (list: Record<string, any>[]) => list.map(({ queued_duration: _queued, duration: _duration, ...job }) => job).sort((a, b) => a.id - b.id);
      expect(timeless(jobs)).toEqual(timeless(apiJobs));
      expect(jobs.map((job: { name: string }) => job.name)).toEqual(['build', 'test']);
    }
    // the filters of the list
    const onTag = await get(`/${project.path_with_namespace}/-/pipelines.json?ref=t0&per_page=100`, developer.token);
    expect(onTag.body.length).toBeGreaterThan(0);
    expect(onTag.body.every((pipeline) => pipeline.ref === 't0' && pipeline.tag === true)).toBe(true);
  });

  it('refuses bad input with a 400, and whoever may not see the project or read its pipelines with a 404', async () => {
    const base = `/${project.path_with_namespace}/-/pipelines.json`;
    const bad = await fx.server.app.http.inject({ method: 'GET', url: `${base}?status=bogus`, headers: { 'private-token': developer.token } });
    expect([bad.statusCode, JSON.parse(bad.body)]).toEqual([400, { message: 'status does not have a valid value' }]);
    const stranger = await fx.server.createUser();
    const privateProject = await fx.createProject('private-list', { visibility: 'private' });
    await fx.call('PUT', `/projects/${privateProject.id}`, { body: { public_builds: false } });
    const guest = await fx.member(privateProject.id, 10);
    for (const token of [stranger.token, guest.token]) {
      const refused = await fx.server.app.http.inject({ method: 'GET', url: `/${privateProject.path_with_namespace}/-/pipelines.json`, headers: { 'private-token': token } });
      expect(refused.statusCode).toBe(404);
    }
  });
});
