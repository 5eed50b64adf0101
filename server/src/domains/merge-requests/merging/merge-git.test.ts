import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitTree, mergeTree, updateRef } from '../../../git/index.js';
import { buildScenario, rawGit, type Scenario } from '../../../git/scenarios/scenarios.js';
import { liveGitFacts, reusableTrialMerge } from './merge-git.js';

const identity = { name: 'Trial', email: 'trial@example.com', date: new Date('2024-01-01T00:00:00Z') };

/**
 * The merge reuses the trial merge the mergeability check left at refs/merge-requests/:iid/merge
 * only when that ref, the recorded commit and the commit's parents all match the tips it merges.
 */
describe('reusableTrialMerge (real repository)', () => {
  let scenario: Scenario;
  let target: string;
  let head: string;
  let other: string;
  let trial: string;
  let mergedTree: string;

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    [target, head, other] = (await rawGit(scenario.repo, 'rev-parse', 'main', 'feature/x', 'main~1')).trim().split('\n') as [string, string, string];
    const merged = (await mergeTree(scenario.repo, target, head))!;
    mergedTree = merged.tree;
    trial = await commitTree(scenario.repo, { tree: merged.tree, parents: [target, head], message: 'trial', author: identity, committer: identity });
    await updateRef(scenario.repo, 'refs/merge-requests/1/merge', trial, null);
  });
  afterAll(() => scenario.cleanup());

  it("answers the trial merge's tree when the ref, the record and the parents agree", async () => {
    expect(await reusableTrialMerge(scenario.repo, { mergeRefTip: trial, recorded: trial }, target, head)).toEqual({ clean: true, tree: mergedTree, conflicts: [] });
  });

  it.each([
    ['no trial merge was recorded', () => ({ stored: { mergeRefTip: trial, recorded: null }, target, head })],
    ['the ref moved away from the recorded commit', () => ({ stored: { mergeRefTip: other, recorded: trial }, target, head })],
    ['the ref is gone', () => ({ stored: { mergeRefTip: null, recorded: trial }, target, head })],
    ['the target moved since the trial', () => ({ stored: { mergeRefTip: trial, recorded: trial }, target: other, head })],
    ['the head is another commit', () => ({ stored: { mergeRefTip: trial, recorded: trial }, target, head: other })],
    ['the parents are swapped', () => ({ stored: { mergeRefTip: trial, recorded: trial }, target: head, head: target })],
    ['the recorded commit is not a merge', () => ({ stored: { mergeRefTip: other, recorded: other }, target, head })],
    ['the recorded commit does not exist', () => ({ stored: { mergeRefTip: 'f'.repeat(40), recorded: 'f'.repeat(40) }, target, head })],
  ])('answers null (merge-tree runs) when %s', async (_name, input) => {
    const { stored, target: t, head: h } = input();
    expect(await reusableTrialMerge(scenario.repo, stored, t, h)).toBeNull();
  });

  it('liveGitFacts gives the same trial either way', async () => {
    const reused = await liveGitFacts(scenario.repo, target, head, 'merge', { mergeRefTip: trial, recorded: trial });
    const computed = await liveGitFacts(scenario.repo, target, head, 'merge');
    expect(reused).toEqual(computed);
    expect(reused).toEqual({ needRebase: false, conflict: false, trial: { clean: true, tree: mergedTree, conflicts: [] } });
  });
});
