import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCommit } from './commits.js';
import { diff, diffCommit, diffTrees } from './diff.js';
import { GitArgumentError } from './errors.js';
import { DEFAULT_DIFF_LIMITS } from './file-diffs.js';
import { buildScenario, rawGit, type Scenario } from './scenarios/scenarios.js';

describe('diff on renamed-binary', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('renamed-binary');
  });
  afterAll(() => scenario.cleanup());

  it('describes every kind of change as GitLab does', async () => {
    const { diffs, overflow } = await diffTrees(scenario.repo, 'main~1', 'main');
    expect(overflow).toBe(false);
    const summary = diffs.map((d) => ({ old: d.old_path, new: d.new_path, a: d.a_mode, b: d.b_mode, n: d.new_file, r: d.renamed_file, d: d.deleted_file, bin: d.binary }));
    expect(summary).toEqual([
      { old: 'added.txt', new: 'added.txt', a: '0', b: '100644', n: true, r: false, d: false, bin: false },
      { old: 'gone.txt', new: 'gone.txt', a: '100644', b: '0', n: false, r: false, d: true, bin: false },
      { old: 'image.png', new: 'image.png', a: '100644', b: '100644', n: false, r: false, d: false, bin: true },
      { old: 'link-me', new: 'link-me', a: '100644', b: '0', n: false, r: false, d: true, bin: false },
      { old: 'link-me', new: 'link-me', a: '0', b: '120000', n: true, r: false, d: false, bin: false },
      { old: 'old.txt', new: 'new.txt', a: '100644', b: '100644', n: false, r: true, d: false, bin: false },
      { old: 'pointer', new: 'pointer', a: '120000', b: '120000', n: false, r: false, d: false, bin: false },
      { old: 'script.sh', new: 'script.sh', a: '100644', b: '100755', n: false, r: false, d: false, bin: false },
      { old: 'vendor/lib', new: 'vendor/lib', a: '160000', b: '160000', n: false, r: false, d: false, bin: false },
    ]);
    expect(diffs[0]!.diff).toBe('@@ -0,0 +1 @@\n+hello\n');
    expect(diffs[2]!.diff).toBe('Binary files a/image.png and b/image.png differ\n');
    expect(diffs[5]!.diff).toBe('@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty!\n');
    expect(diffs[6]!.diff).toBe('@@ -1 +1 @@\n-old.txt\n\\ No newline at end of file\n+new.txt\n\\ No newline at end of file\n');
    expect(diffs[7]!.diff).toBe('');
    expect(diffs[8]!.diff).toContain('+Subproject commit 2222222222222222222222222222222222222222');
  });

  it('diffs a commit against its parent, and a root commit against the empty tree', async () => {
    const head = await getCommit(scenario.repo, 'main');
    expect((await diffCommit(scenario.repo, head!)).diffs).toHaveLength(9);
    const root = await getCommit(scenario.repo, 'main~1');
    const rootDiffs = (await diffCommit(scenario.repo, root!)).diffs;
    expect(rootDiffs.every((d) => d.new_file)).toBe(true);
    expect(rootDiffs.map((d) => d.new_path)).toContain('vendor/lib');
  });

  it('marks files whose hunk text reaches the per-file limit as too large (GitLab: bytesize >= limit)', async () => {
    // Hunk text bytes: vendor/lib 132 (two "Subproject commit" lines), pointer 86 (two "\ No newline" lines).
    const { diffs, overflow } = await diffTrees(scenario.repo, 'main~1', 'main', { ...DEFAULT_DIFF_LIMITS, maxPatchBytes: 86 });
    expect(diffs.filter((d) => d.too_large).map((d) => d.new_path)).toEqual(['pointer', 'vendor/lib']);
    expect(diffs.filter((d) => d.too_large).every((d) => d.collapsed && d.diff === '')).toBe(true);
    expect(overflow).toBe(false);
  });

  it('collapses files at the collapse limit only when one is given (merge request views), keeping their counts', async () => {
    const expanded = await diffTrees(scenario.repo, 'main~1', 'main', { ...DEFAULT_DIFF_LIMITS, maxPatchBytes: 100 });
    expect(expanded.diffs.filter((d) => d.collapsed).map((d) => d.new_path)).toEqual(['vendor/lib']);
    const { diffs, overflow } = await diffTrees(scenario.repo, 'main~1', 'main', { ...DEFAULT_DIFF_LIMITS, maxPatchBytes: 100, collapsePatchBytes: 48 });
    expect(diffs.filter((d) => d.collapsed && !d.too_large).map((d) => `${d.new_path}${d.new_file ? ' (new)' : ''}`)).toEqual(['image.png', 'link-me (new)', 'pointer']);
    expect(diffs.find((d) => d.new_path === 'pointer')).toMatchObject({ diff: '', too_large: false, added_lines: 1, removed_lines: 1 });
    expect(diffs.find((d) => d.new_path === 'new.txt')).toMatchObject({ collapsed: false, diff: '@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty!\n' });
    expect(overflow).toBe(false);
  });

  it('lists every file without text when the whole patch is over the output cap', async () => {
    const { diffs, overflow } = await diffTrees(scenario.repo, 'main~1', 'main', { ...DEFAULT_DIFF_LIMITS, maxOutputBytes: 100 });
    expect(diffs).toHaveLength(9);
    expect(diffs.every((d) => d.too_large && d.collapsed && d.diff === '')).toBe(true);
    expect(overflow).toBe(true);
  });
});

describe('diff on weird-file-names', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('weird-file-names');
  });
  afterAll(() => scenario.cleanup());

  it('keeps exact names for every file', async () => {
    const { diffs } = await diffTrees(scenario.repo, 'main~1', 'main');
    expect(diffs.map((d) => d.new_path)).toEqual([
      '-rf',
      ':(exclude)magic',
      'back\\slash.txt',
      'caf\ufffd.txt',
      'dir with space/inner file.txt',
      'new\nline.txt',
      'quote"d.txt',
      "single'q.txt",
      'tab\there.txt',
      'unicodé 日本.txt',
      'with space.txt',
    ]);
    expect(new Set(diffs.map((d) => d.diff))).toEqual(new Set(['@@ -1 +1 @@\n-v1\n+v2\n']));
  });
});

describe('compare on linear-history', () => {
  let scenario: Scenario;
  let repo: string;
  const sha = async (rev: string) => (await rawGit(repo, 'rev-parse', rev)).trim();
  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
    repo = scenario.repo;
  });
  afterAll(() => scenario.cleanup());

  it('compares from the merge base by default', async () => {
    const result = await diff(repo, 'main', 'feature/x');
    expect(result).toMatchObject({ fromSha: await sha('main'), toSha: await sha('feature/x'), baseSha: await sha('main~3'), sameRef: false });
    expect(result!.commits.map((c) => c.title)).toEqual(['f1: feature work']);
    expect(result!.diffs.map((d) => d.new_path)).toEqual(['feature.txt']);
  });

  it('compares directly when straight', async () => {
    const result = await diff(repo, 'main', 'feature/x', { straight: true });
    expect(result!.baseSha).toBe(await sha('main'));
    expect(result!.diffs.map((d) => d.new_path).sort()).toEqual(['README.md', 'feature.txt', 'src/a.txt']);
  });

  it('lists commits oldest first', async () => {
    const result = await diff(repo, 'v1.0', 'main');
    expect(result!.commits.map((c) => c.title.slice(0, 2))).toEqual(['c3', 'c4', 'c5', 'c6']);
  });

  it('reports the same ref, unknown refs, and refuses option-like refs', async () => {
    expect((await diff(repo, 'main', 'main'))).toMatchObject({ sameRef: true, commits: [], diffs: [] });
    expect(await diff(repo, 'main', 'nope')).toBeNull();
    await expect(diff(repo, 'main', '--output=/tmp/x')).rejects.toBeInstanceOf(GitArgumentError);
  });
});
