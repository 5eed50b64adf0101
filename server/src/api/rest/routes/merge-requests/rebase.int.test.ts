import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** PUT …/rebase through gitbeaker: 202, the job's replay with plumbing, conflicts and permissions. */
describe(`rebasing merge requests (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let counter = 0;
  /** an author in another time zone, to see that the rebase keeps the date and zone */
  const AUTHOR = { GIT_AUTHOR_NAME: 'Ann Author', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_AUTHOR_DATE: '1700000000 +0230', GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.com' };

  const git = async (args: string[]) => (await fx.rawGit(project.id, args)).toString('utf8').trim();
  const rebase = (iid: number, token = developer.token) => fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/rebase`, { token });
  const show = (iid: number) => fx.root.MergeRequests.show(project.id, iid);
  const settled = (iid: number) => eventually(async () => ((await show(iid)).rebase_in_progress === false ? show(iid) : null));

  /** `source` off main with commits (fixed author dates and zones), and main moved on by `upstream` commits. */
  async function diverged(files: Record<string, string>, upstream: Record<string, string>) {
    const source = `topic-${++counter}`;
    const base = await fx.tip(project.id, 'main');
    let head = base;
    for (const [path, content] of Object.entries(files)) {
      const tree = await treeWith(head, path, content);
      head = await fx.bareGit(project.id, ['commit-tree', tree, '-p', head, '-m', `Add ${path}\n\nwhy ${path}`], { env: AUTHOR });
    }
    await fx.setBranch(project.id, source, head);
    const mr = await gitbeakerClient(fx.server.url, developer.token).MergeRequests.create(project.id, source, 'main', `Rebase ${source}`);
    let main = base;
    for (const [path, content] of Object.entries(upstream)) main = await fx.writeCommit(project.id, { parent: main, files: [{ path, content }], message: `Upstream ${path}` });
    await fx.setBranch(project.id, 'main', main);
    return { source, head, main, mr };
  }

  /** `parent`'s tree with one file set. */
  async function treeWith(parent: string, path: string, content: string): Promise<string> {
    const commit = await fx.writeCommit(project.id, { parent, files: [{ path, content }] });
    return git(['rev-parse', `${commit}^{tree}`]);
  }

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('rebase');
    developer = await fx.member(project.id, 30);
  });
  afterAll(() => fx?.close());

  it('answers 202 {rebase_in_progress: true}, then replays the commits onto the target keeping authors', async () => {
    const { source, head, main, mr } = await diverged({ 'one.txt': '1\n', 'two.txt': '2\n' }, { 'up.txt': 'up\n' });
    const authorsBefore = await git(['log', '--format=%an <%ae> %ad %s', '--date=raw', `main..${head}`]);
    expect(authorsBefore).toBe('Ann Author <ann@example.com> 1700000000 +0230 Add two.txt\nAnn Author <ann@example.com> 1700000000 +0230 Add one.txt');

    const scheduled = await gitbeakerClient(fx.server.url, developer.token).MergeRequests.rebase(project.id, mr.iid, { skipCI: true });
    expect(scheduled).toEqual({ rebase_in_progress: true });
    const after = await settled(mr.iid);
    expect(after).toMatchObject({ rebase_in_progress: false, merge_error: null });

    const rebased = await fx.tip(project.id, source);
    expect(rebased).not.toBe(head);
    expect(await git(['rev-list', '--count', `${main}..${rebased}`])).toBe('2');
    expect(await git(['merge-base', '--is-ancestor', main, rebased]).then(() => true)).toBe(true);
    // authors, author dates and messages are kept; the committer is the user who rebased
    expect(await git(['log', '--format=%an <%ae> %ad %s', '--date=raw', `${main}..${rebased}`])).toBe(authorsBefore);
    expect(await git(['log', '-1', '--format=%B', rebased])).toBe('Add two.txt\n\nwhy two.txt');
    expect(await git(['log', '--format=%cn', `${main}..${rebased}`])).toBe(`${developer.username}\n${developer.username}`);
    expect(await git(['show', `${rebased}:up.txt`])).toBe('up');
    // the push of the rebased branch records a new version
    await eventually(async () => (await show(mr.iid)).sha === rebased);
  });

  it("reports 'Rebase failed. Please rebase locally' on a conflict and leaves the branch as it was", async () => {
    const { source, head, mr } = await diverged({ 'README.md': 'ours\n' }, { 'README.md': 'theirs\n' });
    expect((await rebase(mr.iid)).status).toBe(202);
    const after = await settled(mr.iid);
    expect(after).toMatchObject({ rebase_in_progress: false, merge_error: 'Rebase failed. Please rebase locally' });
    expect(await fx.tip(project.id, source)).toBe(head);
  });

  it('clears the rebase error when the source branch is pushed to, as GitLab does', async () => {
    const { source, mr } = await diverged({ 'README.md': 'ours again\n' }, { 'README.md': 'theirs again\n' });
    expect((await rebase(mr.iid)).status).toBe(202);
    expect(await settled(mr.iid)).toMatchObject({ merge_error: 'Rebase failed. Please rebase locally' });
    // the conflict resolved by a push to the source branch
    await gitbeakerClient(fx.server.url, developer.token).Commits.create(project.id, source, 'Resolve', [{ action: 'update', filePath: 'README.md', content: 'theirs again\n' }]);
    await eventually(async () => ((await show(mr.iid)).merge_error === null ? true : null));
  });

  it("lists only the merge request's commits in the 'added N commits' note after a rebase, not the target's", async () => {
    const { mr } = await diverged({ 'mine.txt': 'mine\n' }, { 'up-1.txt': '1\n', 'up-2.txt': '2\n' });
    expect((await rebase(mr.iid)).status).toBe(202);
    expect(await settled(mr.iid)).toMatchObject({ merge_error: null });
    const added = await eventually(async () => {
      const notes = (await fx.root.MergeRequestNotes.all(project.id, mr.iid)) as Array<{ body: string }>;
      return notes.find((note) => note.body.startsWith('added')) ?? null;
    });
    expect(added.body).toMatch(/^added 1 commit\n\n<ul><li>[0-9a-f]+ - Add mine\.txt<\/li><\/ul>/);
  });

  it('clears an earlier rebase error when a rebase succeeds, and drops commits already upstream', async () => {
    const { source, main, mr } = await diverged({ 'same.txt': 'same\n', 'own.txt': 'own\n' }, { 'same.txt': 'same\n' });
    await fx.server.app.db.query("UPDATE merge_requests SET merge_error = 'Rebase failed. Please rebase locally' WHERE id = $1", [mr.id]);
    expect((await rebase(mr.iid)).status).toBe(202);
    expect(await settled(mr.iid)).toMatchObject({ merge_error: null });
    expect(await git(['log', '--format=%s', `${main}..${await fx.tip(project.id, source)}`])).toBe('Add own.txt');
  });

  it('answers 403 to callers who cannot push to the source branch, and 404 to those who cannot see it', async () => {
    const { mr } = await diverged({ 'perm.txt': 'p\n' }, { 'perm-up.txt': 'u\n' });
    const reporter = await fx.member(project.id, 20);
    const stranger = await fx.server.createUser();
    expect(await rebase(mr.iid, reporter.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Cannot push to source branch' } });
    expect((await rebase(mr.iid, stranger.token)).status).toBe(404);
    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/rebase`, { token: null })).status).toBe(401);
  });

  it('answers 403 when the source branch is protected from force push, or gone', async () => {
    const { source, mr } = await diverged({ 'prot.txt': 'p\n' }, { 'prot-up.txt': 'u\n' });
    await fx.call('POST', `/projects/${project.id}/protected_branches`, { body: { name: source, push_access_level: 30, merge_access_level: 30 } });
    expect(await rebase(mr.iid)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Source branch is protected from force push' } });
    await fx.call('DELETE', `/projects/${project.id}/protected_branches/${source}`);
    await fx.rawGit(project.id, ['update-ref', '-d', `refs/heads/${source}`]);
    expect(await rebase(mr.iid)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Source branch does not exist' } });
  });

  it('answers 409 while a rebase is in progress', async () => {
    const { mr } = await diverged({ 'busy.txt': 'b\n' }, { 'busy-up.txt': 'u\n' });
    await fx.server.app.db.query('UPDATE merge_requests SET rebase_in_progress = true WHERE id = $1', [mr.id]);
    expect(await rebase(mr.iid)).toMatchObject({
      status: 409,
      body: { message: 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.' },
    });
    await fx.server.app.db.query('UPDATE merge_requests SET rebase_in_progress = false WHERE id = $1', [mr.id]);
  });

  it('rebases a request from a fork in the fork', async () => {
    const owner = await fx.server.createUser();
    await fx.call('PUT', `/projects/${project.id}`, { body: { visibility: 'internal' } });
    const forked = await gitbeakerClient(fx.server.url, owner.token).Projects.fork(project.id);
    const forkId = forked.id as number;
    const head = await fx.writeCommit(forkId, { parent: await fx.tip(forkId, 'main'), files: [{ path: 'fork.txt', content: 'fork\n' }], message: 'From the fork' });
    await fx.setBranch(forkId, 'fork-topic', head);
    const mr = await gitbeakerClient(fx.server.url, owner.token).MergeRequests.create(forkId, 'fork-topic', 'main', 'Fork rebase', { targetProjectId: project.id });
    const main = await fx.writeCommit(project.id, { parent: await fx.tip(project.id, 'main'), files: [{ path: 'upstream-only.txt', content: 'u\n' }], message: 'upstream' });
    await fx.setBranch(project.id, 'main', main);

    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/rebase`, { token: owner.token })).status).toBe(202);
    expect(await settled(mr.iid)).toMatchObject({ merge_error: null });
    const rebased = await fx.tip(forkId, 'fork-topic');
    expect((await fx.rawGit(forkId, ['rev-parse', `${rebased}^`])).toString().trim()).toBe(main);
  });
});
