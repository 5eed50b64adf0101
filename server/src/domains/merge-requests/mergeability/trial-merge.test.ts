import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitTree, RefConflictError } from '../../../git/index.js';
import { buildScenario, makeTempDir, rawGit, type Scenario } from '../../../git/scenarios/scenarios.js';
import { divergedCommits, mergeRefName, parseCount, parseRefTips, readBranchTips, runTrialMerge } from './trial-merge.js';

const who = { name: 'Ada Lovelace', email: 'ada@example.com' };
const revParse = async (repo: string, rev: string) => (await rawGit(repo, 'rev-parse', '--verify', '--quiet', rev).catch(() => '')).trim() || null;

describe('trial merge parsers', () => {
  it('reads for-each-ref lines, exact names only', () => {
    const out = 'aaaa refs/heads/main\nbbbb refs/heads/main/nested\ncccc refs/merge-requests/1/merge\n';
    expect(parseRefTips(out, ['refs/heads/main', 'refs/merge-requests/1/merge', 'refs/heads/gone'])).toEqual(
      new Map([
        ['refs/heads/main', 'aaaa'],
        ['refs/merge-requests/1/merge', 'cccc'],
      ]),
    );
  });

  it('reads rev-list --count (literal git 2.39.5 output)', () => {
    expect(parseCount('3\n')).toBe(3);
    expect(parseCount('')).toBeNull();
  });
});

describe('runTrialMerge on conflicting-branches', () => {
  let scenario: Scenario;
  let repo: string;
  let main: string;
  let clean: string;
  let feature: string;
  beforeAll(async () => {
    scenario = await buildScenario('conflicting-branches');
    repo = scenario.repo;
    const tip = async (branch: string) => (await revParse(repo, `refs/heads/${branch}`))!;
    [main, clean, feature] = await Promise.all([tip('main'), tip('clean'), tip('feature')]);
  });
  afterAll(() => scenario.cleanup());

  it('reads both tips and the merge ref in one call', async () => {
    expect(await readBranchTips({ targetRepo: repo, sourceRepo: repo, sourceBranch: 'clean', targetBranch: 'main', iid: 1 })).toEqual({ source: clean, target: main, mergeRef: null });
    expect(await readBranchTips({ targetRepo: repo, sourceRepo: repo, sourceBranch: 'gone', targetBranch: 'main', iid: 1 })).toEqual({ source: null, target: main, mergeRef: null });
  });

  it('writes a clean merge to refs/merge-requests/:iid/merge with parents [target, head], and counts the divergence', async () => {
    const result = await runTrialMerge({ repoPath: repo, iid: 1, target: main, head: clean, currentMergeRef: null, message: "Merge branch 'clean' into 'main'\n", identity: who });
    expect(result).toMatchObject({ clean: true, conflicts: [], divergedCommitsCount: 1 });
    expect(await revParse(repo, mergeRefName(1))).toBe(result.mergeRefSha);
    expect((await rawGit(repo, 'log', '-1', '--format=%P', result.mergeRefSha!)).trim()).toBe(`${main} ${clean}`);
    expect(await rawGit(repo, 'show', `${result.mergeRefSha}:clean.txt`)).toBe('clean\n');
    // The branches themselves did not move.
    expect(await revParse(repo, 'refs/heads/main')).toBe(main);
    await rawGit(repo, 'fsck', '--strict');
  });

  it('moves the merge ref only by compare-and-swap', async () => {
    const stale = await runTrialMerge({ repoPath: repo, iid: 2, target: main, head: clean, currentMergeRef: null, message: 'm\n', identity: who });
    await expect(runTrialMerge({ repoPath: repo, iid: 2, target: main, head: clean, currentMergeRef: main, message: 'm\n', identity: who })).rejects.toBeInstanceOf(RefConflictError);
    expect(await revParse(repo, mergeRefName(2))).toBe(stale.mergeRefSha);
  });

  it('reports conflicts and removes the merge ref a clean result left', async () => {
    const before = await revParse(repo, mergeRefName(1));
    const result = await runTrialMerge({ repoPath: repo, iid: 1, target: main, head: feature, currentMergeRef: before, message: 'm\n', identity: who });
    expect(result).toEqual({ clean: false, conflicts: ['f.txt', 'sp ace.txt'], mergeRefSha: null, divergedCommitsCount: 1 });
    expect(await revParse(repo, mergeRefName(1))).toBeNull();
  });

  it('answers "cannot be merged" for unrelated histories instead of failing', async () => {
    const tree = (await rawGit(repo, 'rev-parse', `${clean}^{tree}`)).trim();
    const orphan = await commitTree(repo, { tree, parents: [], message: 'orphan\n', author: who, committer: who });
    const result = await runTrialMerge({ repoPath: repo, iid: 3, target: main, head: orphan, currentMergeRef: null, message: 'm\n', identity: who });
    // Every commit of main (base, main change) is missing from the orphan.
    expect(result).toMatchObject({ clean: false, mergeRefSha: null, divergedCommitsCount: 2 });
  });

  it('counts commits on the target the head lacks: none when the head contains the target', async () => {
    expect(await divergedCommits(repo, main, main)).toBe(0);
    expect(await divergedCommits(repo, clean, main)).toBe(1);
  });
});

describe('branch names crafted as options', () => {
  let scenario: Scenario;
  let pwned: string;
  beforeAll(async () => {
    pwned = await makeTempDir('tributary-pwned-');
    scenario = await buildScenario('malicious-branch-names', pwned);
  });
  afterAll(async () => {
    await scenario.cleanup();
  });

  it('reads and merges them as ref names, never as options', async () => {
    const branches = [`--output=${pwned}/pwned`, '-h', `--upload-pack=touch\${IFS}${pwned}/up`];
    for (const branch of branches) {
      const tips = await readBranchTips({ targetRepo: scenario.repo, sourceRepo: scenario.repo, sourceBranch: branch, targetBranch: 'main', iid: 7 });
      expect(tips.source).toBe(tips.target);
      const result = await runTrialMerge({ repoPath: scenario.repo, iid: 7, target: tips.target!, head: tips.source!, currentMergeRef: tips.mergeRef, message: `Merge branch '${branch}' into 'main'\n`, identity: who });
      expect(result).toMatchObject({ clean: true, divergedCommitsCount: 0 });
    }
    expect(readdirSync(pwned)).toEqual([]);
    expect(existsSync(join(pwned, 'pwned'))).toBe(false);
  });
});
