import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCommits, getCommit, getCommitsByIds, lastCommitForPath, lastCommitsForPaths, listCommits } from './commits.js';
import { GitArgumentError, InvalidTreePathError } from './errors.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('commits on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  const sha = async (rev: string) => (await rawGit(repo, 'rev-parse', rev)).trim();
  const titles = (page: Awaited<ReturnType<typeof listCommits>>) => page?.commits.map((commit) => commit.title.slice(0, 2));

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('gets one commit shaped for the API', async () => {
    const commit = await getCommit(repo, 'main~2');
    expect(commit).toEqual({
      id: await sha('main~2'),
      short_id: (await sha('main~2')).slice(0, 8),
      title: 'c4: ünïcödé title',
      message: 'c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line\n',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.com',
      authored_date: new Date((1700000000 + 4 * 60) * 1000),
      committer_name: 'Grace Hopper',
      committer_email: 'grace@example.com',
      committed_date: new Date((1700000000 + 4 * 60) * 1000),
      created_at: new Date((1700000000 + 4 * 60) * 1000),
      parent_ids: [await sha('main~3')],
    });
  });

  it('gets a tagged commit through the tag, and null for what is not a commit', async () => {
    expect((await getCommit(repo, 'v1.0'))?.id).toBe(await sha('main~4'));
    expect(await getCommit(repo, 'nope')).toBeNull();
    expect(await getCommit(repo, '1'.repeat(40))).toBeNull();
    expect(await getCommit(repo, 'main^{tree}')).toBeNull();
  });

  it('gets several commits by id in one call, as getCommit gets each; a missing one is null', async () => {
    const ids = [await sha('main~1'), await sha('main~3'), await sha('main~1')];
    const found = await getCommitsByIds(repo, ids);
    expect([...found.keys()]).toEqual([ids[0], ids[1]]);
    for (const id of ids) expect(found.get(id)).toEqual(await getCommit(repo, id));
    const missing = '1'.repeat(40);
    const withMissing = await getCommitsByIds(repo, [ids[0]!, missing, 'v1.0']);
    expect(withMissing.get(missing)).toBeNull();
    expect(withMissing.get(ids[0]!)).toEqual(await getCommit(repo, ids[0]!));
    expect(withMissing.get('v1.0')?.id).toBe(await sha('main~4'));
    expect((await getCommitsByIds(repo, [])).size).toBe(0);
  });

  it('pages through history and says whether there is more', async () => {
    expect(titles(await listCommits(repo, { ref: 'main', limit: 2 }))).toEqual(['c6', 'c5']);
    const last = await listCommits(repo, { ref: 'main', limit: 2, skip: 4 });
    expect(titles(last)).toEqual(['c2', 'c1']);
    expect(last?.hasMore).toBe(false);
    expect((await listCommits(repo, { ref: 'main', limit: 2, skip: 2 }))?.hasMore).toBe(true);
  });

  it('filters by path, dates, author and all refs', async () => {
    expect(titles(await listCommits(repo, { ref: 'main', path: 'src/a.txt', limit: 10 }))).toEqual(['c5', 'c2', 'c1']);
    expect(titles(await listCommits(repo, { ref: 'main', since: new Date((1700000000 + 5 * 60) * 1000), limit: 10 }))).toEqual(['c6', 'c5']);
    expect(titles(await listCommits(repo, { ref: 'main', until: new Date((1700000000 + 2 * 60) * 1000), limit: 10 }))).toEqual(['c2', 'c1']);
    expect(titles(await listCommits(repo, { ref: 'main', author: 'ADA', limit: 1 }))).toEqual(['c6']);
    expect(await listCommits(repo, { ref: 'main', author: 'nobody', limit: 1 })).toEqual({ commits: [], hasMore: false });
    expect(titles(await listCommits(repo, { all: true, limit: 10 }))).toHaveLength(7);
    expect(titles(await listCommits(repo, { ref: 'main..feature/x', limit: 10 }))).toEqual(['f1']);
  });

  it('returns null for an unknown ref and refuses option-like refs', async () => {
    expect(await listCommits(repo, { ref: 'nope', limit: 10 })).toBeNull();
    await expect(listCommits(repo, { ref: '--all', limit: 10 })).rejects.toBeInstanceOf(GitArgumentError);
    await expect(listCommits(repo, { ref: 'main', path: '../x', limit: 10 })).rejects.toBeInstanceOf(InvalidTreePathError);
  });

  it('counts commits', async () => {
    expect(await countCommits(repo, { ref: 'main' })).toBe(6);
    expect(await countCommits(repo, { ref: 'main', path: 'docs' })).toBe(1);
    expect(await countCommits(repo, { ref: 'main', maxCount: 3 })).toBe(3);
    expect(await countCommits(repo, { ref: 'nope' })).toBeNull();
  });

  it('finds the last commit for a path', async () => {
    expect((await lastCommitForPath(repo, 'main', 'README.md'))?.title).toBe('c4: ünïcödé title');
    expect((await lastCommitForPath(repo, 'main', 'docs'))?.title).toBe('c3: docs');
    expect(await lastCommitForPath(repo, 'main', 'missing.txt')).toBeNull();
  });

  it('finds the last commits for a page of tree entries', async () => {
    const found = await lastCommitsForPaths(repo, 'main', ['README.md', 'docs', 'src', 'src/a.txt', 'missing']);
    expect(Object.fromEntries([...found].map(([path, commit]) => [path, commit?.title.slice(0, 2) ?? null]))).toEqual({ 'README.md': 'c4', docs: 'c3', src: 'c5', 'src/a.txt': 'c5', missing: null });
  });
});

describe('commits in an empty repository', () => {
  it('returns null rather than failing', async () => {
    const { createBareRepository } = await import('./storage.js');
    const { makeTempDir } = await import('./scenarios/scenarios.js');
    const dir = await makeTempDir();
    const repo = `${dir}/empty.git`;
    await createBareRepository(repo, 'main');
    expect(await listCommits(repo, { limit: 10 })).toBeNull();
    expect(await countCommits(repo, { ref: 'main' })).toBeNull();
    await rm(dir, { recursive: true, force: true });
  });
});
