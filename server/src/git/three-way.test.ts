import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_TREE_SHA1 } from './diff.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { applyCommitToTree, type PickMode } from './three-way.js';

/** Revert and cherry-pick of one commit onto a tree, on the linear-history scenario (real repository). */
describe('applyCommitToTree on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  const identity = { name: 'Picker', email: 'pick@example.com' };
  const rev = async (spec: string) => (await rawGit(repo, 'rev-parse', spec)).trim();
  /** The commit at `subject` on `branch`. */
  const bySubject = async (branch: string, subject: string) => (await rawGit(repo, 'log', '--format=%H', `--grep=^${subject}`, branch)).trim();

  async function apply(mode: PickMode, commit: string, onto: string) {
    const parent = (await rawGit(repo, 'rev-list', '--parents', '-n', '1', commit)).trim().split(' ')[1] ?? null;
    return applyCommitToTree(repo, {
      mode,
      commit,
      commitTree: await rev(`${commit}^{tree}`),
      parent,
      parentTree: parent ? await rev(`${parent}^{tree}`) : null,
      ontoTree: await rev(`${onto}^{tree}`),
      identity,
    });
  }
  const paths = async (tree: string) => (await rawGit(repo, 'ls-tree', '-r', '--name-only', tree)).trim().split('\n');

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('reverts an older commit onto the tip, keeping the later ones', async () => {
    const result = await apply('revert', await bySubject('main', 'c3:'), 'main');
    expect(result.kind).toBe('clean');
    if (result.kind !== 'clean') return;
    expect(await paths(result.tree)).toEqual(['README.md', 'src/a.txt']);
    expect(await rawGit(repo, 'cat-file', 'blob', `${result.tree}:README.md`)).toContain('Über');
  });

  it('cherry-picks a commit of another branch', async () => {
    const result = await apply('cherry-pick', await rev('feature/x'), 'main');
    expect(result.kind).toBe('clean');
    if (result.kind === 'clean') expect(await paths(result.tree)).toContain('feature.txt');
  });

  it('reports a conflict when a later commit changed the same lines', async () => {
    expect(await apply('revert', await bySubject('main', 'c2:'), 'main')).toEqual({ kind: 'conflict', paths: ['src/a.txt'] });
  });

  it('reports empty when the change is already there', async () => {
    expect(await apply('cherry-pick', await bySubject('main', 'c3:'), 'main')).toEqual({ kind: 'empty' });
  });

  it('reverts a root commit against the empty tree', async () => {
    const root = await bySubject('main', 'c1:');
    expect(await apply('revert', root, root)).toEqual({ kind: 'clean', tree: EMPTY_TREE_SHA1 });
  });
});
