import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitArgumentError } from './errors.js';
import { mergeTree, parseMergeTree } from './merge-tree.js';
import { commitTree } from './plumbing-write.js';
import { updateRef } from './ref-updates.js';
import { resolveCommit } from './refs.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';
import { readBlobAt } from './tree.js';

describe('parseMergeTree', () => {
  it('reads the tree and the conflicted paths (literal git 2.39.5 output)', () => {
    const output = Buffer.from('a02a766d83e7f9936742f4a8ca40c3669f6ebc29\0f.txt\0sp ace.txt\0');
    expect(parseMergeTree(output, 1)).toEqual({ clean: false, tree: 'a02a766d83e7f9936742f4a8ca40c3669f6ebc29', conflicts: ['f.txt', 'sp ace.txt'] });
    expect(parseMergeTree(Buffer.from('7a8eff71b0257dc92b0ec1837049c574a22df893\0'), 0)).toEqual({ clean: true, tree: '7a8eff71b0257dc92b0ec1837049c574a22df893', conflicts: [] });
  });
});

describe('mergeTree on conflicting-branches', () => {
  let scenario: Scenario;
  let repo: string;
  beforeAll(async () => {
    scenario = await buildScenario('conflicting-branches');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('names the conflicts', async () => {
    expect(await mergeTree(repo, 'refs/heads/main', 'refs/heads/feature')).toMatchObject({ clean: false, conflicts: ['f.txt', 'sp ace.txt'] });
  });

  it('merges cleanly without a work tree, and the result can land by compare-and-swap', async () => {
    const result = await mergeTree(repo, 'refs/heads/main', 'refs/heads/clean');
    expect(result).toMatchObject({ clean: true, conflicts: [] });
    const main = (await resolveCommit(repo, 'refs/heads/main'))!;
    const clean = (await resolveCommit(repo, 'refs/heads/clean'))!;
    const who = { name: 'Merger', email: 'merge@example.com' };
    const merge = await commitTree(repo, { tree: result!.tree, parents: [main, clean], message: "Merge branch 'clean' into 'main'\n", author: who, committer: who });
    await updateRef(repo, 'refs/heads/main', merge, main);
    expect((await readBlobAt(repo, 'main', 'clean.txt'))?.content.toString()).toBe('clean\n');
    expect((await readBlobAt(repo, 'main', 'f.txt'))?.content.toString()).toBe('a\nB-main\nc\n');
    await rawGit(repo, 'fsck', '--strict');
  });

  it('returns null for unknown revisions and refuses option-like ones', async () => {
    expect(await mergeTree(repo, 'main', 'nope')).toBeNull();
    await expect(mergeTree(repo, 'main', '--output=/tmp/x')).rejects.toBeInstanceOf(GitArgumentError);
  });
});
