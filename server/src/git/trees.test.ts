import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCommandError } from './errors.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { treeOf, treesOf } from './trees.js';

describe('treesOf on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('answers the trees of many revisions in the order asked, repeats included', async () => {
    const revisions = ['refs/heads/main', 'refs/heads/feature/x', 'refs/heads/main~1', 'refs/heads/main'];
    const expected = await Promise.all(revisions.map(async (revision) => (await rawGit(repo, 'rev-parse', `${revision}^{tree}`)).trim()));
    expect(await treesOf(repo, revisions)).toEqual(expected);
    expect(await treeOf(repo, 'refs/heads/feature/x')).toBe(expected[1]);
  });

  it('answers nothing for no revisions, and refuses a revision that names no commit', async () => {
    expect(await treesOf(repo, [])).toEqual([]);
    await expect(treesOf(repo, ['refs/heads/main', 'f'.repeat(40)])).rejects.toThrow(GitCommandError);
    await expect(treeOf(repo, 'refs/heads/no-such-branch')).rejects.toMatchObject({ code: 'bad-object' });
  });
});
