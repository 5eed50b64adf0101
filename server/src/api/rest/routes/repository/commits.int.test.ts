import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';

/** Commits (list, show, diff, create) and compare. */
describe(`repository commits and compare API (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let developer: TestUser;
  let initial: string;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('commits-api');
    developer = await fx.member(project.id, 30);
    initial = await fx.bareGit(project.id, ['rev-parse', 'refs/heads/main']);
  });

  afterAll(async () => {
    await fx?.close();
  });

  interface CompareBody {
    commit: { id: string } | null;
    commits: Array<{ id: string; title: string }>;
    diffs: Array<{ new_path: string; old_path: string; deleted_file: boolean }>;
    compare_timeout: boolean;
    compare_same_ref: boolean;
    web_url: string;
  }
  const compareRefs = async (from: string, to: string, options?: { straight?: boolean }) =>
    (await fx.root.Repositories.compare(project.id, from, to, options)) as unknown as CompareBody;
  const tip = (branch = 'main') => fx.bareGit(project.id, ['rev-parse', `refs/heads/${branch}`]);

  it('creates a commit with several actions (201) and returns the commit detail with stats', async () => {
    const commit = await fx.root.Commits.create(project.id, 'main', 'Add src\n\nWith a body.', [
      { action: 'create', filePath: 'src/a.txt', content: 'one\ntwo\n' },
      { action: 'create', filePath: 'src/b.bin', content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64' },
      { action: 'update', filePath: 'README.md', content: '# commits-api\n\nchanged\n' },
    ]);
    expect(commit).toMatchObject({
      title: 'Add src',
      message: 'Add src\n\nWith a body.',
      parent_ids: [initial],
      project_id: project.id,
      status: null,
      last_pipeline: null,
      web_url: `${fx.server.url}/${project.path_with_namespace}/-/commit/${commit.id}`,
    });
    // README: one line replaced; a.txt: two lines; the binary file counts nothing.
    expect(commit.stats).toEqual({ additions: 3, deletions: 1, total: 4 });
    expect(await tip()).toBe(commit.id);
    expect(await fx.bareGit(project.id, ['cat-file', '-p', `${commit.id}:src/b.bin`])).toBe('\0\u0001\u0002');
  });

  it('moves, chmods and deletes in one commit', async () => {
    const commit = await fx.root.Commits.create(project.id, 'main', 'Reshape', [
      { action: 'move', filePath: 'lib/a.txt', previousPath: 'src/a.txt' },
      { action: 'chmod', filePath: 'src/b.bin', execute_filemode: true },
    ]);
    expect(await fx.bareGit(project.id, ['ls-tree', '-r', '--name-only', commit.id])).toBe('README.md\nlib/a.txt\nsrc/b.bin');
    expect(await fx.bareGit(project.id, ['ls-tree', commit.id, 'src/b.bin'])).toMatch(/^100755 /);
    await fx.root.Commits.create(project.id, 'main', 'Drop binary', [{ action: 'delete', filePath: 'src/b.bin' }]);
  });

  it('refuses bad actions with GitLab messages and writes nothing', async () => {
    const before = await tip();
    const cases: Array<[unknown[], string]> = [
      [[{ action: 'rename', file_path: 'x' }], '400 Bad request - actions[0][action] must be one of: create, update, move, delete, chmod'],
      [[{ action: 'create', file_path: 'ok.txt', content: 'x' }, { action: 'create', file_path: 'README.md', content: 'x' }], 'A file with this name already exists'],
      [[{ action: 'update', file_path: 'nope.txt', content: 'x' }], "A file with this name doesn't exist"],
      [[{ action: 'create', file_path: 'lib', content: 'x' }], 'A directory with this name already exists'],
      [[{ action: 'create', file_path: '../escape', content: 'x' }], 'Path cannot include directory traversal'],
      [[{ action: 'create', file_path: '.git/hooks/post-receive', content: 'x' }], 'Path cannot include a .git directory'],
      [[{ action: 'update', file_path: 'lib/a.txt', content: 'x', last_commit_id: initial }], 'The file has changed since you started editing it: lib/a.txt'],
    ];
    for (const [actions, message] of cases) {
      const response = await fx.call('POST', `/projects/${project.id}/repository/commits`, { body: { branch: 'main', commit_message: 'x', actions } });
      expect(response.status, JSON.stringify(actions)).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await fx.call('POST', `/projects/${project.id}/repository/commits`, { body: { branch: 'main', commit_message: 'x' } })).status).toBe(400);
    expect(await tip()).toBe(before);
  });

  it('keeps Developers off the protected default branch (403) and lets them branch off with start_sha', async () => {
    const refused = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      token: developer.token,
      body: { branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'd.txt', content: 'x' }] },
    });
    expect(refused).toMatchObject({ status: 403, body: { message: '403 Forbidden - You are not allowed to push into this branch' } });
    const asDeveloper = gitbeakerClient(fx.server.url, developer.token);
    const commit = await asDeveloper.Commits.create(project.id, 'dev-start', 'From the first commit', [{ action: 'create', filePath: 'd.txt', content: 'x' }], {
      startSha: initial,
    });
    expect(commit.parent_ids).toEqual([initial]);
    expect(await tip('dev-start')).toBe(commit.id);

    const bothStarts = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: { branch: 'y', start_branch: 'main', start_sha: initial, commit_message: 'x', actions: [{ action: 'create', file_path: 'y', content: '' }] },
    });
    expect(bothStarts).toMatchObject({ status: 400, body: { message: "You can't pass both start_branch and start_sha" } });
    const badSha = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: { branch: 'y', start_sha: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'y', content: '' }] },
    });
    expect(badSha).toMatchObject({ status: 400, body: { message: "Invalid start_sha 'main'" } });
  });

  it('overwrites a branch only with force, and refuses a forced overwrite of a protected branch', async () => {
    const exists = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: { branch: 'dev-start', start_branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'f.txt', content: 'x' }] },
    });
    expect(exists.status).toBe(400);
    const forced = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: { branch: 'dev-start', start_branch: 'main', force: true, commit_message: 'Forced', actions: [{ action: 'create', file_path: 'f.txt', content: 'x' }] },
    });
    expect(forced.status).toBe(201);
    expect(forced.body.parent_ids).toEqual([await tip('main')]);

    const mainBefore = await tip('main');
    const rewrite = await fx.call('POST', `/projects/${project.id}/repository/commits`, {
      body: { branch: 'main', start_sha: initial, force: true, commit_message: 'Rewrite', actions: [{ action: 'create', file_path: 'g.txt', content: 'x' }] },
    });
    expect(rewrite).toMatchObject({ status: 403, body: { message: 'You are not allowed to force push code to a protected branch on this project.' } });
    expect(await tip('main')).toBe(mainBefore);
  });

  it('loses compare-and-swap races cleanly: every commit answered 201 is on the branch, the rest got 409 or 400', async () => {
    await fx.root.Branches.create(project.id, 'race', 'main');
    const start = await tip('race');
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fx.call('POST', `/projects/${project.id}/repository/commits`, {
          body: { branch: 'race', commit_message: `Race ${i}`, actions: [{ action: 'create', file_path: `race/${i}.txt`, content: `${i}` }] },
        }),
      ),
    );
    const won = attempts.filter((r) => r.status === 201);
    const lost = attempts.filter((r) => r.status !== 201);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const response of lost) {
      expect([400, 409]).toContain(response.status);
      expect(typeof response.body.message).toBe('string');
    }
    const history = (await fx.bareGit(project.id, ['rev-list', `${start}..refs/heads/race`])).split('\n').filter(Boolean);
    expect(history.sort()).toEqual(won.map((r) => r.body.id as string).sort());
    const files = (await fx.bareGit(project.id, ['ls-tree', '--name-only', 'refs/heads/race:race'])).split('\n').filter(Boolean);
    expect(files).toHaveLength(won.length);
  });

  it('lists history with ref_name, path, since/until, with_stats and keysetless pagination', async () => {
    const all = await fx.root.Commits.all(project.id);
    expect(all[all.length - 1]!.id).toBe(initial);
    expect(all[0]!.id).toBe(await tip());

    const page = await fx.call('GET', `/projects/${project.id}/repository/commits?per_page=2`);
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-next-page')).toBe('2');
    expect(page.headers.get('x-total')).toBeNull();
    expect(page.headers.get('link')).toContain('rel="next"');
    const followed = await fx.root.Commits.all(project.id, { perPage: 2 });
    expect(followed.map((c) => c.id)).toEqual(all.map((c) => c.id));

    const byPath = await fx.root.Commits.all(project.id, { path: 'lib/a.txt' });
    expect(byPath.map((c) => c.title)).toEqual(['Reshape']);
    const onBranch = await fx.root.Commits.all(project.id, { refName: 'dev-start' });
    expect(onBranch[0]!.title).toBe('Forced');
    const future = await fx.call('GET', `/projects/${project.id}/repository/commits?since=2090-01-01T00:00:00Z`);
    expect(future.body).toEqual([]);
    const past = await fx.call('GET', `/projects/${project.id}/repository/commits?until=2000-01-01T00:00:00Z`);
    expect(past.body).toEqual([]);
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits?since=not-a-date`)).status).toBe(400);
    const withStats = await fx.call('GET', `/projects/${project.id}/repository/commits?with_stats=true&per_page=1`);
    expect(withStats.body[0].stats).toEqual({ additions: expect.any(Number), deletions: expect.any(Number), total: expect.any(Number) });
    expect((await fx.call('GET', `/projects/${project.id}/repository/commits?ref_name=unknown`)).body).toEqual([]);
    const everything = await fx.call('GET', `/projects/${project.id}/repository/commits?all=true&per_page=100`);
    expect(everything.body.length).toBeGreaterThan(all.length);
  });

  it('shows one commit by SHA or ref (stats by default) and 404 for unknown ones', async () => {
    const head = await tip();
    const byRef = await fx.root.Commits.show(project.id, 'main');
    expect(byRef.id).toBe(head);
    expect(byRef.stats).toBeDefined();
    const noStats = await fx.call('GET', `/projects/${project.id}/repository/commits/${head}?stats=false`);
    expect(noStats.body.stats).toBeUndefined();
    expect(await fx.call('GET', `/projects/${project.id}/repository/commits/${'0'.repeat(40)}`)).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
  });

  it('returns a commit diff, paginated, in GitLab diff items', async () => {
    const commit = (await fx.root.Commits.all(project.id)).find((c) => c.title === 'Add src')!;
    const diffs = await fx.root.Commits.showDiff(project.id, commit.id);
    const created = diffs.find((d) => d.new_path === 'src/a.txt')!;
    expect(created).toMatchObject({ old_path: 'src/a.txt', new_file: true, deleted_file: false, renamed_file: false, a_mode: '0', b_mode: '100644', too_large: false, collapsed: false });
    expect(created.diff).toBe('@@ -0,0 +1,2 @@\n+one\n+two\n');
    const paged = await fx.call('GET', `/projects/${project.id}/repository/commits/${commit.id}/diff?per_page=1`);
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-total')).toBe(String(diffs.length));
    const moved = (await fx.root.Commits.all(project.id)).find((c) => c.title === 'Reshape')!;
    const renamed = (await fx.root.Commits.showDiff(project.id, moved.id)).find((d) => d.renamed_file);
    expect(renamed).toMatchObject({ old_path: 'src/a.txt', new_path: 'lib/a.txt' });
  });

  it('compares refs from the merge base, straight, and the same ref', async () => {
    const compare = await compareRefs(initial, 'main');
    expect(compare.commits.map((c) => c.title)).toEqual(['Add src', 'Reshape', 'Drop binary']);
    expect(compare.commit?.id).toBe(await tip());
    expect(compare).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    expect(compare.web_url).toBe(`${fx.server.url}/${project.path_with_namespace}/-/compare/${initial}...main`);
    expect(compare.diffs.map((d) => d.new_path)).toContain('lib/a.txt');

    // race and dev-start both grew from main: from the merge base only dev-start's own change shows;
    // a straight compare also undoes what race added.
    const fromBase = await compareRefs('race', 'dev-start');
    expect(fromBase.commits.map((c) => c.title)).toEqual(['Forced']);
    expect(fromBase.diffs.map((d) => d.new_path)).toEqual(['f.txt']);
    const straight = await compareRefs('race', 'dev-start', { straight: true });
    const deleted = straight.diffs.filter((d) => d.deleted_file).map((d) => d.old_path);
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((path) => path.startsWith('race/'))).toBe(true);
    expect(straight.diffs.length).toBeGreaterThan(fromBase.diffs.length);

    const same = await fx.call('GET', `/projects/${project.id}/repository/compare?from=main&to=main`);
    expect(same.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
    expect(await fx.call('GET', `/projects/${project.id}/repository/compare?from=nope&to=main`)).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
    expect((await fx.call('GET', `/projects/${project.id}/repository/compare?from=main`)).status).toBe(400);
  });
});
