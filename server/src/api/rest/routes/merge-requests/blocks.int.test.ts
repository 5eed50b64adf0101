import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/**
 * Merge request dependencies (GitLab's API::MergeRequestDependencies, …/blocks and
 * …/blockees) and BLOCKED_STATUS: a request is mergeable once every request blocking it is
 * merged, whether or not the caller may see the blocker.
 */
describe(`blocking merge requests (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let hidden: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let reporter: TestUser;
  let a: { id: number; iid: number };
  let b: { id: number; iid: number };
  let secret: { id: number; iid: number };

  const as = (user: TestUser | null) => ({ token: user ? user.token : null });
  const blocks = (iid: number, suffix = '') => `/projects/${project.id}/merge_requests/${iid}/blocks${suffix}`;
  const detailed = async (iid: number) => (await fx.root.MergeRequests.show(project.id, iid)).detailed_merge_status;
  async function openRequest(projectId: number, name: string) {
    const sha = await fx.writeCommit(projectId, { parent: await fx.tip(projectId, 'main'), files: [{ path: `${name}.txt`, content: `${name}\n` }] });
    await fx.setBranch(projectId, name, sha);
    const mr = await fx.root.MergeRequests.create(projectId, name, 'main', `Request ${name}`);
    return { id: mr.id as number, iid: mr.iid as number };
  }

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('blocks');
    developer = await fx.member(project.id, 30);
    reporter = await fx.member(project.id, 20);
    a = await openRequest(project.id, 'a');
    b = await openRequest(project.id, 'b');
    // A private project of root's that the developer cannot see.
    hidden = await fx.createProject('blocks-hidden');
    secret = await openRequest(hidden.id, 'secret');
  });
  afterAll(() => fx?.close());

  it('lets a Developer make one request block another (201), and the blocked one says merge_request_blocked', async () => {
    expect(await detailed(b.iid)).toBe('mergeable');
    const created = await fx.call('POST', blocks(b.iid), { ...as(developer), body: { blocking_merge_request_id: a.id } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      blocking_merge_request: { id: a.id, iid: a.iid, state: 'opened' },
      blocked_merge_request: { id: b.id, iid: b.iid, detailed_merge_status: 'merge_request_blocked' },
      project_id: project.id,
    });
    expect(await detailed(b.iid)).toBe('merge_request_blocked');
    expect(await detailed(a.iid)).toBe('mergeable');

    const list = await fx.call('GET', blocks(b.iid), as(developer));
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body).toEqual([created.body]);
    expect((await fx.call('GET', blocks(b.iid, `/${created.body.id}`), as(reporter))).body).toEqual(created.body);
    const blockees = await fx.call('GET', `/projects/${project.id}/merge_requests/${a.iid}/blockees`, as(reporter));
    expect(blockees.body.map((block: { id: number }) => block.id)).toEqual([created.body.id]);

    const single = await fx.root.MergeRequests.show(project.id, b.iid);
    expect(single.blocking_merge_requests).toMatchObject({ total_count: 1, hidden_count: 0, visible_merge_requests: { opened: [{ iid: a.iid, reference: `${project.path_with_namespace}!${a.iid}` }] } });
  });

  it('answers GitLab’s refusals: duplicate 409, self 400, cycle 400, missing or both parameters 400', async () => {
    expect(await fx.call('POST', blocks(b.iid), { ...as(developer), body: { blocking_merge_request_id: a.id } })).toMatchObject({ status: 409, body: { message: 'Block already exists' } });
    expect(await fx.call('POST', blocks(b.iid), { ...as(developer), body: { blocking_merge_request_iid: b.iid } })).toMatchObject({ status: 400, body: { message: 'This block is self-referential' } });
    const cycle = await fx.call('POST', blocks(a.iid), { ...as(developer), body: { blocking_merge_request_iid: b.iid } });
    expect(cycle.status).toBe(400);
    expect((await fx.call('POST', blocks(a.iid), { ...as(developer), body: {} })).status).toBe(400);
    expect((await fx.call('POST', blocks(a.iid), { ...as(developer), body: { blocking_merge_request_id: b.id, blocking_merge_request_iid: b.iid } })).status).toBe(400);
    expect(await fx.call('POST', blocks(a.iid), { ...as(developer), body: { blocking_merge_request_id: 987654321 } })).toMatchObject({
      status: 404,
      body: { message: 'Blocking merge request not found' },
    });
    expect(await detailed(a.iid)).toBe('mergeable');
  });

  it('keeps requests the caller may not read out of its answers, while they still block', async () => {
    expect(await fx.call('POST', blocks(b.iid), { ...as(developer), body: { blocking_merge_request_id: secret.id } })).toMatchObject({
      status: 403,
      body: { message: 'Lacking permissions to the blocking merge request' },
    });
    // By iid in a project the developer cannot see: 404, as GitLab.
    expect((await fx.call('POST', blocks(b.iid), { ...as(developer), body: { blocking_merge_request_iid: secret.iid, blocking_project_id: hidden.path_with_namespace } })).status).toBe(404);
    // root may: the block exists, and the developer sees it without its blocking side.
    const created = await fx.call('POST', blocks(b.iid), { body: { blocking_merge_request_iid: secret.iid, blocking_project_id: hidden.path_with_namespace } });
    expect(created.status).toBe(201);
    const list = (await fx.call('GET', blocks(b.iid), as(developer))).body as Array<Record<string, unknown>>;
    const hiddenBlock = list.find((block) => block.id === created.body.id)!;
    expect(hiddenBlock).not.toHaveProperty('blocking_merge_request');
    expect(hiddenBlock).toMatchObject({ blocked_merge_request: { iid: b.iid }, project_id: hidden.id });
    const shown = await gitbeakerClient(fx.server.url, developer.token).MergeRequests.show(project.id, b.iid);
    expect(shown.blocking_merge_requests).toMatchObject({ total_count: 2, hidden_count: 1 });
    expect(JSON.stringify(shown)).not.toContain('Request secret');
    // Only someone who can read the blocker may remove the block.
    expect((await fx.call('DELETE', blocks(b.iid, `/${created.body.id}`), as(developer))).status).toBe(403);
    expect((await fx.call('DELETE', blocks(b.iid, `/${created.body.id}`))).status).toBe(204);
  });

  it('lets Reporters read but not change dependencies, and hides private projects’ ones (404)', async () => {
    expect(await fx.call('POST', blocks(a.iid), { ...as(reporter), body: { blocking_merge_request_id: b.id } })).toMatchObject({
      status: 403,
      body: { message: 'Lacking permissions to update the merge request' },
    });
    const [block] = (await fx.call('GET', blocks(b.iid), as(reporter))).body as Array<{ id: number }>;
    expect((await fx.call('DELETE', blocks(b.iid, `/${block!.id}`), as(reporter))).status).toBe(403);
    expect((await fx.call('GET', `/projects/${hidden.id}/merge_requests/${secret.iid}/blocks`, as(developer))).status).toBe(404);
    expect((await fx.call('GET', blocks(b.iid), as(null))).status).toBe(404);
    expect((await fx.call('GET', blocks(b.iid, '/999999'), as(developer))).status).toBe(404);
  });

  it('keeps a closed blocker blocking; merging it unblocks, and the blocked request’s page hears of it', async () => {
    await fx.root.MergeRequests.edit(project.id, a.iid, { stateEvent: 'close' });
    expect(await detailed(b.iid)).toBe('merge_request_blocked');
    await fx.root.MergeRequests.edit(project.id, a.iid, { stateEvent: 'reopen' });

    const lastEvent = async () => {
      const { rows } = await fx.server.app.db.query<{ id: number }>(
        `SELECT max(id) AS id FROM domain_events WHERE type = 'merge_request.changed' AND (payload->>'mergeRequestId')::bigint = $1`,
        [b.id],
      );
      return rows[0]?.id ?? 0;
    };
    const before = await lastEvent();
    await eventually(async () => (await detailed(a.iid)) === 'mergeable');
    const merged = await fx.root.MergeRequests.merge(project.id, a.iid);
    expect(merged.state).toBe('merged');
    // main moved, so b is rechecked (`checking`) before it shows the result.
    await eventually(async () => (await detailed(b.iid)) === 'mergeable');
    await eventually(async () => (await lastEvent()) > before);
  });

  it('removes a dependency (204)', async () => {
    const [block] = (await fx.call('GET', blocks(b.iid), as(developer))).body as Array<{ id: number; blocking_merge_request: { state: string } }>;
    expect(block!.blocking_merge_request.state).toBe('merged');
    expect((await fx.call('DELETE', blocks(b.iid, `/${block!.id}`), as(developer))).status).toBe(204);
    expect((await fx.call('GET', blocks(b.iid), as(developer))).body).toEqual([]);
    expect((await fx.call('DELETE', blocks(b.iid, `/${block!.id}`), as(developer))).status).toBe(404);
  });
});
