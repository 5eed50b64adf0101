import { describe, expect, it } from 'vitest';
import { parseDiffHunks } from './diff-hunks';
import { MAX_EDIT_DISTANCE, splitLines, unifiedLineDiff } from './line-diff';

const lines = (count: number, label = 'line') => Array.from({ length: count }, (_, i) => `${label} ${i + 1}`).join('\n') + '\n';

describe('unifiedLineDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedLineDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  it('prints one changed line with three lines of context, as git does', () => {
    const before = lines(10);
    const after = before.replace('line 5\n', 'line five\n');
    expect(unifiedLineDiff(before, after)).toBe('@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n');
  });

  it('splits distant changes into hunks and merges close ones', () => {
    const before = lines(40);
    const after = before.replace('line 3\n', 'x\n').replace('line 8\n', 'y\n').replace('line 30\n', 'z\n');
    const hunks = parseDiffHunks(unifiedLineDiff(before, after)).hunks;
    expect(hunks.map((hunk) => [hunk.oldStart, hunk.oldCount, hunk.newStart, hunk.newCount])).toEqual([
      [1, 11, 1, 11],
      [27, 7, 27, 7],
    ]);
  });

  it('writes git ranges for a new and a deleted file', () => {
    expect(unifiedLineDiff('', 'a\nb\n')).toBe('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedLineDiff('a\n', '')).toBe('@@ -1 +0,0 @@\n-a\n');
  });

  it('finds insertions in the middle', () => {
    const parsed = parseDiffHunks(unifiedLineDiff('a\nb\nc\n', 'a\nb\nnew\nc\n'));
    expect(parsed.added).toBe(1);
    expect(parsed.removed).toBe(0);
    expect(parsed.hunks[0]!.lines.find((line) => line.type === 'add')).toMatchObject({ text: 'new', newLine: 3 });
  });

  it('still produces a correct diff when the edit distance exceeds the limit', () => {
    const before = lines(MAX_EDIT_DISTANCE, 'old');
    const after = lines(MAX_EDIT_DISTANCE, 'new');
    const parsed = parseDiffHunks(unifiedLineDiff(before, after));
    expect(parsed.removed).toBe(MAX_EDIT_DISTANCE);
    expect(parsed.added).toBe(MAX_EDIT_DISTANCE);
  });

  it('agrees with the line numbers of both texts', () => {
    const before = 'a\nb\nc\nd\ne\nf\n';
    const after = 'a\nc\nd\nE\ne\nf\ng\n';
    const parsed = parseDiffHunks(unifiedLineDiff(before, after, 0));
    const [a, b] = [splitLines(before), splitLines(after)];
    for (const hunk of parsed.hunks) {
      for (const line of hunk.lines) {
        if (line.type === 'delete') expect(a[line.oldLine! - 1]).toBe(line.text);
        if (line.type === 'add') expect(b[line.newLine! - 1]).toBe(line.text);
      }
    }
    expect(parsed.added).toBe(2);
    expect(parsed.removed).toBe(1);
  });
});
