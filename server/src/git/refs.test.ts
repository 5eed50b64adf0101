import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitArgumentError } from './errors.js';
import { isAncestor, listRefNames, listRefs, mergedRefs, readRef, readRefs, resolveCommit, resolveCommits, symbolicRefTarget } from './refs.js';
import { mergeBase } from './merge-base.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('refs on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  const sha = async (rev: string) => (await rawGit(repo, 'rev-parse', rev)).trim();

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('lists branches with their commits in one call', async () => {
    const branches = await listRefs(repo, 'refs/heads/');
    expect(branches.map((ref) => ref.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
    expect(branches[1]!.commit).toMatchObject({ id: await sha('main'), title: expect.stringMatching(/^c6: /), parent_ids: [await sha('main~1')] });
  });

  it('lists tags, peeling annotated ones', async () => {
    const tags = await listRefs(repo, 'refs/tags/', { sort: '-refname' });
    expect(tags.map((ref) => ref.ref)).toEqual(['refs/tags/v1.0', 'refs/tags/light']);
    expect(tags[0]).toMatchObject({ targetType: 'tag', tagMessage: 'Release 1.0\n\nNotes.', commit: { id: await sha('main~4') } });
  });

  it('sorts by committer date', async () => {
    const branches = await listRefs(repo, 'refs/heads/', { sort: '-committerdate' });
    expect(branches.map((ref) => ref.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
  });

  it('reads one ref by its exact name', async () => {
    expect((await readRef(repo, 'refs/heads/main'))?.commit?.id).toBe(await sha('main'));
    expect(await readRef(repo, 'refs/heads/feature')).toBeNull(); // a prefix of feature/x, not a ref
    expect(await readRef(repo, 'refs/heads/nope')).toBeNull();
  });

  it('lists names cheaply and reads a page of refs in one call', async () => {
    expect(await listRefNames(repo, 'refs/heads/')).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
    expect(await listRefNames(repo, 'refs/tags/', { sort: '-creatordate' })).toEqual(['refs/tags/light', 'refs/tags/v1.0']);
    const page = await readRefs(repo, ['refs/heads/main', 'refs/heads/nope', 'refs/tags/v1.0']);
    expect(page.map((ref) => [ref.ref, ref.commit?.id])).toEqual([
      ['refs/heads/main', await sha('main')],
      ['refs/tags/v1.0', await sha('main~4')],
    ]);
  });

  it('finds merged branches', async () => {
    expect(await mergedRefs(repo, 'refs/heads/', await sha('main'))).toEqual(new Set(['refs/heads/main']));
    expect(await mergedRefs(repo, 'refs/heads/', await sha('feature/x'))).toEqual(new Set(['refs/heads/feature/x']));
  });

  it('resolves branches, tags, full and short SHAs', async () => {
    const main = await sha('main');
    expect(await resolveCommit(repo, 'main')).toBe(main);
    expect(await resolveCommit(repo, 'refs/heads/main')).toBe(main);
    expect(await resolveCommit(repo, main)).toBe(main);
    expect(await resolveCommit(repo, main.slice(0, 8))).toBe(main);
    expect(await resolveCommit(repo, 'v1.0')).toBe(await sha('main~4')); // the tag's commit, not the tag
    expect(await resolveCommit(repo, 'main~1')).toBe(await sha('main~1'));
    expect(await resolveCommit(repo, 'nope')).toBeNull();
    expect(await resolveCommit(repo, 'main:README.md')).toBeNull(); // a blob is not a commit
  });

  it('resolves many revisions in one call', async () => {
    expect(await resolveCommits(repo, ['main', 'nope', 'v1.0'])).toEqual([await sha('main'), null, await sha('main~4')]);
    await expect(resolveCommits(repo, ['main', '--all'])).rejects.toBeInstanceOf(GitArgumentError);
  });

  it('answers ancestry and merge bases', async () => {
    expect(await isAncestor(repo, 'main~2', 'main')).toBe(true);
    expect(await isAncestor(repo, 'main', 'main~2')).toBe(false);
    expect(await isAncestor(repo, 'feature/x', 'main')).toBe(false);
    expect(await mergeBase(repo, 'main', 'feature/x')).toBe(await sha('main~3'));
  });

  it('reads HEAD', async () => {
    expect(await symbolicRefTarget(repo, 'HEAD')).toBe('refs/heads/main');
  });
});
