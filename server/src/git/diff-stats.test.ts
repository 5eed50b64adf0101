import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffTrees } from './diff.js';
import { diffTreeStats } from './diff-stats.js';
import { collapsesOnRead, DEFAULT_DIFF_LIMITS, MERGE_REQUEST_DIFF_LIMITS, NO_DIFF_LIMITS, type DiffLimits, type DiffResult } from './file-diffs.js';
import { buildScenario, type Scenario, type ScenarioName } from './scenarios/scenarios.js';

const withoutText = (result: DiffResult): DiffResult => ({ ...result, diffs: result.diffs.map((d) => ({ ...d, diff: '' })) });

/**
 * A version as the API shows it: the recorded files, each not recorded as collapsed then
 * collapsed by its text (what merge-request-changes.service.ts does with the patch it prints).
 */
async function asRead(repo: string, limits: DiffLimits): Promise<DiffResult> {
  const recorded = await diffTreeStats(repo, 'main~1', 'main', limits);
  const texts = (await diffTrees(repo, 'main~1', 'main', NO_DIFF_LIMITS)).diffs;
  return { ...recorded, diffs: recorded.diffs.map((d, i) => (!d.collapsed && collapsesOnRead(texts[i]!.diff, limits) ? { ...d, collapsed: true } : d)) };
}

/** The reference: git's whole patch under the same limits (the output cap only changes how sizes are measured). */
async function reference(repo: string, limits: DiffLimits): Promise<DiffResult> {
  return withoutText(await diffTrees(repo, 'main~1', 'main', { ...limits, maxOutputBytes: undefined }));
}

const LIMITS: Array<[string, DiffLimits]> = [
  ['merge request limits', MERGE_REQUEST_DIFF_LIMITS],
  ['no collapse limit', DEFAULT_DIFF_LIMITS],
  ['tiny limits (most files measured by git)', { ...MERGE_REQUEST_DIFF_LIMITS, collapsePatchBytes: 20, maxPatchBytes: 60 }],
  ['a file limit', { ...MERGE_REQUEST_DIFF_LIMITS, maxFiles: 3 }],
];

describe.each<ScenarioName>(['patch-sizes', 'renamed-binary', 'weird-file-names'])('diffTreeStats on %s', (name) => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario(name);
  });
  afterAll(() => scenario.cleanup());

  it.each(LIMITS)('as read, equals the patch-based diff without its text (%s)', async (_label, limits) => {
    expect(await asRead(scenario.repo, limits)).toEqual(await reference(scenario.repo, limits));
  });

  it('diffs a root commit against the empty tree', async () => {
    const recorded = await diffTreeStats(scenario.repo, null, 'main~1', DEFAULT_DIFF_LIMITS);
    expect(recorded).toEqual(withoutText(await diffTrees(scenario.repo, null, 'main~1', DEFAULT_DIFF_LIMITS)));
  });
});

describe('diffTreeStats flags (patch-sizes)', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('patch-sizes');
  });
  afterAll(() => scenario.cleanup());

  it('collapses at a tenth of the maximum, marks too large at the maximum, keeps line counts', async () => {
    const { diffs, overflow } = await asRead(scenario.repo, MERGE_REQUEST_DIFF_LIMITS);
    const flags = Object.fromEntries(diffs.map((d) => [d.new_path, [d.collapsed, d.too_large, d.added_lines, d.removed_lines, d.binary]]));
    expect(flags).toEqual({
      'at-limit.txt': [true, false, 512, 0, false],
      'big-edit.txt': [false, false, 1, 1, false],
      'blob.bin': [false, false, 0, 0, true],
      'gone-big.txt': [true, false, 0, 1000, false],
      'grows.txt': [true, false, 1000, 0, false],
      'huge.txt': [true, true, 8000, 0, false],
      'no-eol.txt': [true, false, 1, 0, false],
      'small.txt': [false, false, 1, 1, false],
      'under-limit.txt': [false, false, 512, 0, false],
    });
    expect(diffs.every((d) => d.diff === '')).toBe(true);
    expect(overflow).toBe(false);
  });

  it('records what the sizes settle, and leaves a patch near the collapse limit to the read', async () => {
    const { diffs } = await diffTreeStats(scenario.repo, 'main~1', 'main');
    const collapsed = diffs.filter((d) => d.collapsed).map((d) => d.new_path);
    // Added and deleted files are sized exactly; grows.txt (modified) and no-eol.txt (within one
    // "\ No newline" of the limit) only by their text.
    expect(collapsed).toEqual(['at-limit.txt', 'gone-big.txt', 'huge.txt']);
  });

  it('measures each file that may be too large alone when their patches together pass the output cap', async () => {
    const limits: DiffLimits = { ...MERGE_REQUEST_DIFF_LIMITS, collapsePatchBytes: 20, maxPatchBytes: 60, maxOutputBytes: 2000 };
    expect(await asRead(scenario.repo, limits)).toEqual(await reference(scenario.repo, limits));
  });

  it('collapses the files after the line limit, counting the lines of every file not recorded as collapsed', async () => {
    const { diffs, overflow } = await diffTreeStats(scenario.repo, 'main~1', 'main', { ...MERGE_REQUEST_DIFF_LIMITS, maxLines: 1003 });
    // at-limit (collapsed by size) counts nothing; big-edit 2 and blob 0; grows.txt's 1000 (collapsed
    // only on read) reach 1002; huge collapses by size; no-eol adds 1 → 1003; the rest collapse by lines.
    expect(diffs.map((d) => [d.new_path, d.collapsed])).toEqual([
      ['at-limit.txt', true],
      ['big-edit.txt', false],
      ['blob.bin', false],
      ['gone-big.txt', true],
      ['grows.txt', false],
      ['huge.txt', true],
      ['no-eol.txt', false],
      ['small.txt', true],
      ['under-limit.txt', true],
    ]);
    expect(overflow).toBe(true);
  });
});

describe('diffTreeStats on weird-file-names with a small output cap', () => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await buildScenario('weird-file-names');
  });
  afterAll(() => scenario.cleanup());

  it('counts a file that may be too large as its upper bound when a name git cannot be given back forces the whole patch, and that is too long', async () => {
    const limits: DiffLimits = { ...MERGE_REQUEST_DIFF_LIMITS, collapsePatchBytes: 18, maxPatchBytes: 60, maxOutputBytes: 100 };
    const { diffs } = await diffTreeStats(scenario.repo, 'main~1', 'main', limits);
    // Each "-v1 +v2" hunk is 20 bytes; its upper bound is past 60: recorded too large, never shown in full.
    expect(diffs.every((d) => d.collapsed && d.too_large)).toBe(true);
  });
});
