import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** DELETE /projects/:id/merge_requests/:iid: owners and administrators only, as GitLab. */
describe(`deleting a merge request (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  let maintainer: TestUser;
  let owner: TestUser;
  let stranger: TestUser;

  async function openMergeRequest(branch: string): Promise<number> {
    return (await openWithId(branch)).iid;
  }
  async function openWithId(branch: string): Promise<{ iid: number; id: number }> {
    await fx.root.Branches.create(project.id, branch, 'main');
    await fx.root.Commits.create(project.id, branch, `Change ${branch}`, [{ action: 'create', filePath: `${branch}.txt`, content: 'x\n' }]);
    const mr = await fx.root.MergeRequests.create(project.id, branch, 'main', `MR ${branch}`);
    await fx.root.MergeRequestNotes.create(project.id, mr.iid, 'a note');
    return { iid: mr.iid, id: mr.id };
  }
  const count = async () => Number((await fx.server.app.db.query<{ n: string }>('SELECT count(*) AS n FROM merge_requests WHERE target_project_id = $1', [project.id])).rows[0]!.n);

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('mr-delete');
    maintainer = await fx.member(project.id, 40);
    owner = await fx.member(project.id, 50);
    stranger = await fx.server.createUser();
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('refuses a stranger (404), a Maintainer (403) and the signed-out (401); the merge request stays', async () => {
    const iid = await openMergeRequest('keep');
    expect((await fx.call('DELETE', `/projects/${project.id}/merge_requests/${iid}`, { token: stranger.token })).status).toBe(404);
    const asMaintainer = await fx.call('DELETE', `/projects/${project.id}/merge_requests/${iid}`, { token: maintainer.token });
    expect(asMaintainer.status).toBe(403);
    expect(asMaintainer.body).toEqual({ message: '403 Forbidden' });
    expect((await fx.call('DELETE', `/projects/${project.id}/merge_requests/${iid}`, { token: null })).status).toBe(401);
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`)).status).toBe(200);
  });

  it('answers 404 for an iid that names nothing, changing nothing', async () => {
    const before = await count();
    for (const iid of ['999', 'abc', '-1']) {
      expect((await fx.call('DELETE', `/projects/${project.id}/merge_requests/${iid}`)).status).toBe(404);
    }
    expect(await count()).toBe(before);
  });

  it('lets an Owner delete one (204) with its notes; it is gone for everyone', async () => {
    const { iid, id } = await openWithId('doomed');
    const notesOf = async () => (await fx.server.app.db.query('SELECT 1 FROM notes WHERE merge_request_id = $1', [id])).rows.length;
    expect(await notesOf()).toBe(1);
    await gitbeakerClient(fx.server.url, owner.token).MergeRequests.remove(project.id, iid);
    const gone = await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Merge Request Not Found' });
    expect(await notesOf()).toBe(0);
  });

  it('lets an administrator delete one', async () => {
    const iid = await openMergeRequest('admin-deletes');
    const answer = await fx.call('DELETE', `/projects/${project.id}/merge_requests/${iid}`);
    expect(answer.status).toBe(204);
    expect((await fx.call('GET', `/projects/${project.id}/merge_requests/${iid}`)).status).toBe(404);
  });
});
