import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Forks, merge requests from forks into their upstream, and what private forks hide. */
describe(`forks and merge requests from forks (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let alice: TestUser;
  let bob: TestUser;
  let aliceApi: ReturnType<typeof gitbeakerClient>;
  let fork: { id: number; path_with_namespace: string };
  let privateFork: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    upstream = await fx.createProject('upstream', { visibility: 'public' });
    alice = await fx.server.createUser({ username: 'alice' });
    bob = await fx.server.createUser({ username: 'bob' });
    aliceApi = gitbeakerClient(fx.server.url, alice.token);
  });
  afterAll(() => fx?.close());

  it('forks into the caller’s namespace (201) with forked_from_project and the source’s branches', async () => {
    await fx.root.Branches.create(upstream.id, 'stable', 'main');
    const created = await aliceApi.Projects.fork(upstream.id);
    fork = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    expect(created).toMatchObject({
      path_with_namespace: 'alice/upstream',
      visibility: 'public',
      default_branch: 'main',
      empty_repo: false,
      forked_from_project: { id: upstream.id, path_with_namespace: upstream.path_with_namespace },
    });
    const branches = await aliceApi.Branches.all(fork.id);
    expect(branches.map((branch) => branch.name).sort()).toEqual(['main', 'stable']);
    expect(await fx.tip(fork.id, 'main')).toBe(await fx.tip(upstream.id, 'main'));
    expect((await aliceApi.Projects.show(fork.id)).forked_from_project).toMatchObject({ id: upstream.id });
  });

  it('lowers a requested visibility to the source’s, and refuses a taken path (409) or a foreign namespace (404)', async () => {
    const internal = await fx.createProject('internal-source', { visibility: 'internal' });
    const lowered = await aliceApi.Projects.fork(internal.id, { visibility: 'public' });
    expect(lowered.visibility).toBe('internal');
    const again = await fx.call('POST', `/projects/${upstream.id}/fork`, { token: alice.token });
    expect(again).toMatchObject({ status: 409, body: { message: { name: ['has already been taken'], path: ['has already been taken'] } } });
    const foreign = await fx.call('POST', `/projects/${upstream.id}/fork`, { token: alice.token, body: { namespace_path: 'bob', path: 'x' } });
    expect(foreign).toMatchObject({ status: 404, body: { message: '404 Target Namespace Not Found' } });
  });

  it('makes a private fork that strangers cannot see, listed in forks only for those who can', async () => {
    const created = await aliceApi.Projects.fork(upstream.id, { path: 'secret-fork', name: 'secret fork', visibility: 'private' });
    privateFork = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    expect(created.visibility).toBe('private');
    const forks = (token: string) => fx.call<Array<{ path_with_namespace: string }>>('GET', `/projects/${upstream.id}/forks`, { token });
    expect((await forks(alice.token)).body.map((p) => p.path_with_namespace).sort()).toEqual(['alice/secret-fork', 'alice/upstream']);
    expect((await forks(bob.token)).body.map((p) => p.path_with_namespace)).toEqual(['alice/upstream']);
    expect((await fx.call('GET', `/projects/${privateFork.id}`, { token: bob.token })).status).toBe(404);
  });

  it('refuses to fork what the caller cannot read (404)', async () => {
    const secret = await fx.createProject('private-upstream');
    expect(await fx.call('POST', `/projects/${secret.id}/fork`, { token: alice.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const guest = await fx.member(secret.id, 10); // sees the project, not its code
    expect(await fx.call('POST', `/projects/${secret.id}/fork`, { token: guest.token })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
  });

  it('opens a merge request from the fork into the upstream; the commit is copied into the upstream repository', async () => {
    const commit = await aliceApi.Commits.create(fork.id, 'feature', 'Fork work', [{ action: 'create', filePath: 'fork.txt', content: 'from the fork\n' }], { startBranch: 'main' });
    const mr = await aliceApi.MergeRequests.create(fork.id, 'feature', 'main', 'From the fork', { targetProjectId: upstream.id });
    expect(mr).toMatchObject({
      iid: 1,
      project_id: upstream.id,
      source_project_id: fork.id,
      target_project_id: upstream.id,
      sha: commit.id,
      changes_count: '1',
      first_contribution: true,
      web_url: `${fx.server.url}/${upstream.path_with_namespace}/-/merge_requests/1`,
    });
    expect((await fx.rawGit(upstream.id, ['rev-parse', 'refs/merge-requests/1/head'])).toString().trim()).toBe(commit.id);
    expect((await fx.rawGit(upstream.id, ['cat-file', '-p', `${commit.id}:fork.txt`])).toString()).toBe('from the fork\n');
    const diffs = await fx.root.MergeRequests.allDiffs(upstream.id, 1);
    expect(diffs.map((diff) => diff.new_path)).toEqual(['fork.txt']);
    expect((await fx.root.MergeRequests.allCommits(upstream.id, 1)).map((c) => c.id)).toEqual([commit.id]);
  });

  it('records a new version when the fork’s branch moves (the push event of the fork)', async () => {
    const next = await aliceApi.Commits.create(fork.id, 'feature', 'More fork work', [{ action: 'create', filePath: 'more.txt', content: 'more\n' }]);
    const versions = await eventually(async () => {
      const list = await fx.root.MergeRequests.allDiffVersions(upstream.id, 1);
      return list.length === 2 ? list : null;
    });
    expect(versions[0]!.head_commit_sha).toBe(next.id);
    expect((await fx.rawGit(upstream.id, ['rev-parse', 'refs/merge-requests/1/head'])).toString().trim()).toBe(next.id);
  });

  it('refuses a source that is not in the target’s fork network (422) and a source the caller cannot push to (403)', async () => {
    const unrelated = await aliceApi.Projects.create({ name: 'unrelated', initializeWithReadme: true });
    const response = await fx.call('POST', `/projects/${unrelated.id}/merge_requests`, { token: alice.token, body: { source_branch: 'main', target_branch: 'main', title: 'x', target_project_id: upstream.id } });
    expect(response).toMatchObject({ status: 422, body: { message: ['Source project is not a fork of the target project'] } });
    const fromUpstream = await fx.call('POST', `/projects/${upstream.id}/merge_requests`, { token: alice.token, body: { source_branch: 'stable', target_branch: 'main', title: 'x' } });
    expect(fromUpstream).toMatchObject({ status: 403 });
  });

  it('never shows a private fork’s merge requests to those who cannot read the fork', async () => {
    await aliceApi.Commits.create(privateFork.id, 'secret-work', 'Secret work', [{ action: 'create', filePath: 'secret.txt', content: 'secret\n' }], { startBranch: 'main' });
    const secret = await aliceApi.MergeRequests.create(privateFork.id, 'secret-work', 'main', 'Secret title');
    const asBob = (path: string) => fx.call('GET', path, { token: bob.token });
    const base = `/projects/${privateFork.id}/merge_requests`;
    for (const path of [base, `${base}/${secret.iid}`, `${base}/${secret.iid}/diffs`, `${base}/${secret.iid}/changes`, `${base}/${secret.iid}/versions`, `${base}/${secret.iid}/commits`, `${base}/${secret.iid}/raw_diffs`, `${base}/${secret.iid}/participants`]) {
      const response = await asBob(path);
      expect(response.status, path).toBe(404);
      expect(response.raw.toString(), path).not.toContain('Secret');
    }
    expect((await fx.call('PUT', `${base}/${secret.iid}`, { token: bob.token, body: { title: 'pwned' } })).status).toBe(404);
    for (const token of [bob.token, null]) {
      const everything = await fx.call<Array<{ title: string }>>('GET', '/merge_requests?scope=all&per_page=100', { token });
      expect(everything.body.map((mr) => mr.title)).not.toContain('Secret title');
    }
    const searched = await fx.call<Array<{ title: string }>>('GET', '/merge_requests?scope=all&search=Secret', { token: bob.token });
    expect(searched.body).toEqual([]);
    // Its owner and administrators still see it.
    expect((await aliceApi.MergeRequests.all({ projectId: privateFork.id })).map((mr) => mr.title)).toEqual(['Secret title']);
    expect((await fx.root.MergeRequests.all({ scope: 'all', search: 'Secret' })).map((mr) => mr.title)).toEqual(['Secret title']);
  });
});
