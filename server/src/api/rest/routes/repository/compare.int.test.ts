import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

interface CompareBody {
  commit: { id: string } | null;
  commits: Array<{ id: string; title: string }>;
  diffs: Array<{ old_path: string; new_path: string; new_file: boolean; deleted_file: boolean; diff: string; added_lines: number; removed_lines: number }>;
  compare_same_ref: boolean;
  web_url: string;
}

/** Compare across a fork network (from_project_id) and merge_base, with who may ask. */
describe(`compare across forks and merge_base (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let unrelated: { id: number; path_with_namespace: string };
  let fork: { id: number; path_with_namespace: string };
  let secretFork: { id: number; path_with_namespace: string };
  let alice: TestUser;
  let bob: TestUser;
  let aliceApi: ReturnType<typeof gitbeakerClient>;
  let forkPoint: string;
  let forkCommit: string;
  let upstreamCommit: string;

  const compare = (projectId: number, query: string, token?: string | null) => fx.call<CompareBody>('GET', `/projects/${projectId}/repository/compare?${query}`, { token });
  const mergeBase = (projectId: number, query: string, token?: string | null) => fx.call<{ id: string; message?: string }>('GET', `/projects/${projectId}/repository/merge_base?${query}`, { token });
  const hasObject = async (projectId: number, sha: string) =>
    fx.rawGit(projectId, ['cat-file', '-e', sha]).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    upstream = await fx.createProject('cmp-upstream', { visibility: 'public' });
    unrelated = await fx.createProject('cmp-unrelated', { visibility: 'public' });
    alice = await fx.server.createUser({ username: 'cmp-alice' });
    bob = await fx.server.createUser({ username: 'cmp-bob' });
    aliceApi = gitbeakerClient(fx.server.url, alice.token);
    forkPoint = await fx.tip(upstream.id, 'main');
    const created = await aliceApi.Projects.fork(upstream.id);
    fork = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    const secret = await aliceApi.Projects.fork(upstream.id, { path: 'cmp-secret', name: 'cmp secret', visibility: 'private' });
    secretFork = { id: secret.id as number, path_with_namespace: secret.path_with_namespace as string };
    forkCommit = (await aliceApi.Commits.create(fork.id, 'feature', 'Fork work', [{ action: 'create', filePath: 'fork.txt', content: 'from the fork\n' }], { startBranch: 'main' })).id;
    await aliceApi.Commits.create(secretFork.id, 'hidden', 'Secret work', [{ action: 'create', filePath: 'secret.txt', content: 'secret\n' }], { startBranch: 'main' });
    // The upstream moves on after the forks were made.
    upstreamCommit = (await fx.root.Commits.create(upstream.id, 'main', 'Upstream work', [{ action: 'create', filePath: 'upstream.txt', content: 'upstream\n' }])).id;
  });
  afterAll(() => fx?.close());

  it('compares a fork’s branch with its upstream’s branch (from_project_id) from the merge base, copying nothing', async () => {
    const body = (await aliceApi.Repositories.compare(fork.id, 'main', 'feature', { fromProjectId: upstream.id })) as unknown as CompareBody;
    expect(body.commits.map((c) => c.title)).toEqual(['Fork work']);
    expect(body.commit?.id).toBe(forkCommit);
    expect(body.diffs).toMatchObject([{ new_path: 'fork.txt', new_file: true, diff: '@@ -0,0 +1 @@\n+from the fork\n', added_lines: 1, removed_lines: 0 }]);
    expect(body).toMatchObject({ compare_same_ref: false, web_url: `${fx.server.url}/${fork.path_with_namespace}/-/compare/main...feature` });
    // git read the upstream's objects in place: neither repository gained the other's commit.
    expect(await hasObject(upstream.id, forkCommit)).toBe(false);
    expect(await hasObject(fork.id, upstreamCommit)).toBe(false);

    // Straight: the upstream's newer file is missing on the fork's side.
    const straight = await compare(fork.id, `from=main&to=feature&straight=true&from_project_id=${upstream.id}`, alice.token);
    expect(straight.body.diffs.map((d) => `${d.new_path}${d.deleted_file ? ' (deleted)' : ''}`).sort()).toEqual(['fork.txt', 'upstream.txt (deleted)']);
    // The other way round: the upstream's main against the fork's.
    const back = await compare(upstream.id, `from=main&to=main&from_project_id=${fork.id}`, alice.token);
    expect(back.body.commits.map((c) => c.id)).toEqual([upstreamCommit]);
    expect(back.body.diffs.map((d) => d.new_path)).toEqual(['upstream.txt']);
    // Without from_project_id both refs are the fork's own.
    expect((await compare(fork.id, 'from=main&to=feature', alice.token)).body.commits.map((c) => c.id)).toEqual([forkCommit]);
    expect((await compare(fork.id, `from=main&to=feature&from_project_id=${fork.id}`, alice.token)).body.commits.map((c) => c.id)).toEqual([forkCommit]);
  });

  it('reads a private fork only for those who can: the fork’s owner compares it, others get 404 either way round', async () => {
    const own = await compare(secretFork.id, `from=main&to=hidden&from_project_id=${upstream.id}`, alice.token);
    expect(own.body.commits.map((c) => c.title)).toEqual(['Secret work']);
    expect(await compare(upstream.id, `from=hidden&to=main&from_project_id=${secretFork.id}`, bob.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await compare(secretFork.id, `from=main&to=hidden&from_project_id=${upstream.id}`, bob.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await compare(upstream.id, `from=main&to=main&from_project_id=${secretFork.id}`, null)).toMatchObject({ status: 404 });
    expect(await compare(upstream.id, 'from=main&to=main&from_project_id=999999', bob.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it('refuses a from project outside the fork network (400, GitLab’s words), a bad id, and unknown refs (404)', async () => {
    expect(await compare(fork.id, `from=main&to=feature&from_project_id=${unrelated.id}`, alice.token)).toMatchObject({
      status: 400,
      body: { message: `Target project id:${unrelated.id} is not a fork of project id:${fork.id}` },
    });
    expect((await compare(fork.id, 'from=main&to=feature&from_project_id=abc', alice.token)).status).toBe(400);
    expect(await compare(fork.id, `from=nope&to=feature&from_project_id=${upstream.id}`, alice.token)).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
    // `to` is looked up in :id, not in the from project: the fork's branch is unknown upstream.
    expect(await compare(upstream.id, `from=main&to=feature&from_project_id=${fork.id}`, alice.token)).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
    expect((await compare(fork.id, '-x=1&from=--output=/tmp/x&to=feature', alice.token)).status).toBe(400);
  });

  it('answers 404 Ref for a compare in an empty repository', async () => {
    const empty = await fx.root.Projects.create({ name: 'cmp-empty' });
    expect(await compare(empty.id, 'from=main&to=main')).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
  });

  it('finds the merge base of two or more refs (Entities::Commit), refs[] or a comma list', async () => {
    await fx.root.Branches.create(upstream.id, 'side', forkPoint);
    const sideCommit = (await fx.root.Commits.create(upstream.id, 'side', 'Side work', [{ action: 'create', filePath: 'side.txt', content: 'side\n' }])).id;
    const base = await fx.root.Repositories.mergeBase(upstream.id, ['main', 'side']);
    expect(base).toMatchObject({ id: forkPoint, web_url: `${fx.server.url}/${upstream.path_with_namespace}/-/commit/${forkPoint}` });
    expect((await mergeBase(upstream.id, 'refs=main,side')).body.id).toBe(forkPoint);
    expect((await mergeBase(upstream.id, `refs[]=${sideCommit}&refs[]=side`)).body.id).toBe(sideCommit);
    expect((await mergeBase(upstream.id, `refs[]=main&refs[]=side&refs[]=${forkPoint}`)).body.id).toBe(forkPoint);
  });

  it('answers merge_base with 400 for fewer than two refs or unknown ones, 404 when the histories share nothing', async () => {
    expect(await mergeBase(upstream.id, 'refs[]=main')).toMatchObject({ status: 400, body: { message: 'Provide at least 2 refs' } });
    expect(await mergeBase(upstream.id, '')).toMatchObject({ status: 400, body: { message: 'Provide at least 2 refs' } });
    expect(await mergeBase(upstream.id, 'refs[]=main&refs[]=nope')).toMatchObject({ status: 400, body: { message: 'Could not find ref: nope' } });
    expect(await mergeBase(upstream.id, 'refs[]=nope&refs[]=--output%3D%2Ftmp%2Fx&refs[]=main')).toMatchObject({ status: 400, body: { message: 'Could not find refs: nope, --output=/tmp/x' } });
    const orphan = await fx.writeCommit(upstream.id, { parent: null, files: [{ path: 'other.txt', content: 'unrelated\n' }], message: 'Unrelated root' });
    await fx.setBranch(upstream.id, 'orphan', orphan);
    expect(await mergeBase(upstream.id, 'refs[]=main&refs[]=orphan')).toMatchObject({ status: 404, body: { message: '404 Merge Base Not Found' } });
    const empty = await fx.root.Projects.create({ name: 'cmp-empty-base' });
    expect(await mergeBase(empty.id, 'refs[]=main&refs[]=dev')).toMatchObject({ status: 400, body: { message: 'Could not find refs: main, dev' } });
  });

  it('keeps merge_base of a private project from those who cannot read it (404)', async () => {
    expect(await mergeBase(secretFork.id, 'refs[]=main&refs[]=hidden', bob.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await mergeBase(secretFork.id, 'refs[]=main&refs[]=hidden', alice.token)).body.id).toBe(forkPoint);
  });

  it('narrows a compare to the files at paths[] (Tributary’s), each with the patch the whole compare has: a renamed file by both paths, names taken literally', async () => {
    const project = await fx.createProject('cmp-paths');
    const base = await fx.tip(project.id, 'main');
    const lines = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `line ${i + 1}${i === 4 ? tag : ''}`).join('\n') + '\n';
    await fx.root.Commits.create(project.id, 'main', 'Files', [
      { action: 'create', filePath: 'old-name.txt', content: lines(20) },
      { action: 'create', filePath: 'dir/inner.txt', content: 'inner\n' },
      { action: 'create', filePath: 'star*.txt', content: 'star\n' },
      { action: 'create', filePath: 'stars.txt', content: 'stars\n' },
    ]);
    const from = await fx.tip(project.id, 'main');
    await fx.root.Commits.create(project.id, 'main', 'Change them', [
      { action: 'move', previousPath: 'old-name.txt', filePath: 'new-name.txt', content: lines(20, ' changed') },
      { action: 'update', filePath: 'dir/inner.txt', content: 'inner changed\n' },
      { action: 'update', filePath: 'star*.txt', content: 'star changed\n' },
      { action: 'update', filePath: 'stars.txt', content: 'stars changed\n' },
    ]);
    const to = await fx.tip(project.id, 'main');
    const whole = (await compare(project.id, `from=${from}&to=${to}&straight=true`, fx.server.root.token)).body;
    expect(whole.diffs).toHaveLength(4);

    const renamed = await compare(project.id, `from=${from}&to=${to}&straight=true&paths[]=old-name.txt&paths[]=new-name.txt`, fx.server.root.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.diffs).toEqual([whole.diffs.find((d) => d.new_path === 'new-name.txt')]);
    expect(renamed.body.diffs[0]).toMatchObject({ old_path: 'old-name.txt', new_path: 'new-name.txt', added_lines: 1, removed_lines: 1 });
    // `star*.txt` is that file, not a pattern; a folder's name is no file of it
    const star = await compare(project.id, `from=${from}&to=${to}&straight=true&paths[]=${encodeURIComponent('star*.txt')}&paths[]=dir`, fx.server.root.token);
    expect(star.body.diffs.map((d) => d.new_path)).toEqual(['star*.txt']);
    expect(star.body.diffs[0]!.diff).toBe('@@ -1 +1 @@\n-star\n+star changed\n');
    // the commits are the compare's as without paths
    expect(star.body.commits.map((c) => c.id)).toEqual(whole.commits.map((c) => c.id));
    expect(base).not.toBe(from);
    // who may not read the project learns nothing, paths or not
    expect(await compare(project.id, `from=${from}&to=${to}&paths[]=stars.txt`, bob.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});
