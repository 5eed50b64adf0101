import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import type { TestUser } from '../../test-support/server.js';

/**
 * GET /-/projects/:id/merge_requests/:iid/note_author_roles: the facts behind the Activity
 * section's role badges (Author, Contributor, or the member's access level),
 * through the one permission path.
 */
describe(`note author roles (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let open: { id: number; path_with_namespace: string };
  let closed: { id: number; path_with_namespace: string };
  let iid = 0;
  let closedIid = 0;
  let developer: TestUser;
  let reporter: TestUser;
  let outsider: TestUser;
  let contributor: TestUser;
  const roles = (projectId: number, mrIid: number, token: string | null) =>
    fetch(`${fx.server.url}/-/projects/${projectId}/merge_requests/${mrIid}/note_author_roles`, { headers: token ? { 'private-token': token } : {} });
  const note = (projectId: number, mrIid: number, token: string, body: Record<string, unknown>) =>
    fx.call('POST', `/projects/${projectId}/merge_requests/${mrIid}/notes`, { token, body });

  async function mergeRequest(projectId: number, branch: string, token?: string): Promise<number> {
    const main = await fx.tip(projectId, 'main');
    const head = await fx.writeCommit(projectId, { parent: main, files: [{ path: `${branch}.txt`, content: `${branch}\n` }], message: branch });
    await fx.setBranch(projectId, branch, head);
    const created = await fx.call<{ iid: number }>('POST', `/projects/${projectId}/merge_requests`, { token, body: { source_branch: branch, target_branch: 'main', title: branch } });
    expect(created.status).toBe(201);
    return created.body.iid;
  }

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    open = await fx.createProject('roles-public', { visibility: 'public' });
    closed = await fx.createProject('roles-private');
    developer = await fx.member(open.id, 30);
    reporter = await fx.member(open.id, 20);
    outsider = await fx.server.createUser();
    // a contributor: once a Developer whose merge request was merged, no longer a member
    contributor = await fx.member(open.id, 30);
    const contributed = await mergeRequest(open.id, 'contribution', contributor.token);
    await eventually(async () => (await fx.call('GET', `/projects/${open.id}/merge_requests/${contributed}`)).body.detailed_merge_status === 'mergeable');
    expect((await fx.call('PUT', `/projects/${open.id}/merge_requests/${contributed}/merge`)).status).toBe(200);
    expect((await fx.call('DELETE', `/projects/${open.id}/members/${contributor.id}`)).status).toBe(204);

    iid = await mergeRequest(open.id, 'feature');
    await note(open.id, iid, fx.server.root.token, { body: 'From the author.' });
    await note(open.id, iid, developer.token, { body: 'From a developer.' });
    await note(open.id, iid, outsider.token, { body: 'From a passer-by.' });
    await note(open.id, iid, contributor.token, { body: 'From a contributor.' });
    await note(open.id, iid, reporter.token, { body: 'For the team only.', internal: true });
    closedIid = await mergeRequest(closed.id, 'secret');
  });
  afterAll(() => fx?.close());

  it("names each note author's access level, or Contributor for a non-member with a merged merge request", async () => {
    const response = await roles(open.id, iid, developer.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      [fx.server.root.id]: { access_level: 50, contributor: false },
      [developer.id]: { access_level: 30, contributor: false },
      [reporter.id]: { access_level: 20, contributor: false },
      [outsider.id]: { access_level: null, contributor: false },
      [contributor.id]: { access_level: null, contributor: true },
    });
  });

  it("leaves out internal notes' authors for those who may not read internal notes", async () => {
    for (const token of [outsider.token, null]) {
      const response = await roles(open.id, iid, token);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual([fx.server.root.id, developer.id, outsider.id, contributor.id].map(String).sort());
    }
  });

  it('answers 404 for a merge request the caller may not see, or one that does not exist', async () => {
    expect((await roles(closed.id, closedIid, fx.server.root.token)).status).toBe(200);
    expect((await roles(closed.id, closedIid, outsider.token)).status).toBe(404);
    expect((await roles(closed.id, closedIid, null)).status).toBe(404);
    expect((await roles(open.id, 9999, developer.token)).status).toBe(404);
    expect((await roles(open.id, 0, developer.token)).status).toBe(404);
  });
});
