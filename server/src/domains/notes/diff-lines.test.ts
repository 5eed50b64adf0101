import { describe, expect, it } from 'vitest';
import { countLines, findDiffLine, isUnfoldableLine, parseDiffLines } from './diff-lines.js';

// What `git diff-tree -p` writes for a file with two changes far apart (from the first @@).
const PATCH = [
  '@@ -1,5 +1,6 @@',
  ' line1',
  '-line2',
  '+line2 changed',
  '+inserted',
  ' line3',
  ' line4',
  ' line5',
  '@@ -20,3 +21,4 @@ def context',
  ' line20',
  ' line21',
  '+added',
  ' line22',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('parseDiffLines', () => {
  const diff = parseDiffLines(PATCH);

  it("counts lines as GitLab's parser does: added lines keep the old position reached", () => {
    expect(diff.lines.slice(0, 4)).toEqual([
      { type: null, oldLine: 1, newLine: 1, oldPosition: 1, newPosition: 1 },
      { type: 'old', oldLine: 2, newLine: null, oldPosition: 2, newPosition: 2 },
      { type: 'new', oldLine: null, newLine: 2, oldPosition: 3, newPosition: 2 },
      { type: 'new', oldLine: null, newLine: 3, oldPosition: 3, newPosition: 3 },
    ]);
    expect(diff.lines.find((line) => line.type === 'new' && line.newLine === 23)).toEqual({ type: 'new', oldLine: null, newLine: 23, oldPosition: 22, newPosition: 23 });
    expect(diff.hunks).toEqual([
      { oldStart: 1, oldCount: 5, newStart: 1, newCount: 6 },
      { oldStart: 20, oldCount: 3, newStart: 21, newCount: 4 },
    ]);
  });

  it('ignores the no-newline marker and the trailing newline', () => {
    expect(diff.lines).toHaveLength(11);
    expect(diff.lines.at(-1)).toEqual({ type: null, oldLine: 22, newLine: 24, oldPosition: 22, newPosition: 24 });
  });

  it('starts a new file at old position 0 (line codes <sha>_0_n)', () => {
    expect(parseDiffLines('@@ -0,0 +1,2 @@\n+a\n+b\n').lines.map((line) => [line.oldPosition, line.newPosition])).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it('reads a deleted file to new position 0', () => {
    expect(parseDiffLines('@@ -1 +0,0 @@\n-gone\n').lines).toEqual([{ type: 'old', oldLine: 1, newLine: null, oldPosition: 1, newPosition: 0 }]);
  });

  it('finds nothing in binary or empty diffs', () => {
    expect(parseDiffLines('Binary files a/x.png and b/x.png differ\n').lines).toEqual([]);
    expect(parseDiffLines('').lines).toEqual([]);
  });
});

describe('findDiffLine', () => {
  const diff = parseDiffLines(PATCH);
  it.each([
    ['an added line by its new line only', { oldLine: null, newLine: 3 }, 'new'],
    ['a removed line by its old line only', { oldLine: 2, newLine: null }, 'old'],
    ['an unchanged line by both', { oldLine: 21, newLine: 22 }, null],
  ] as const)('finds %s', (_name, request, type) => {
    expect(findDiffLine(diff, request)?.type).toBe(type);
  });

  it.each([
    ['an added line named with an old line too', { oldLine: 3, newLine: 3 }],
    ['an unchanged line by its new line only', { oldLine: null, newLine: 1 }],
    ['a line outside the hunks', { oldLine: 10, newLine: 11 }],
  ])('does not find %s', (_name, request) => {
    expect(findDiffLine(diff, request)).toBeUndefined();
  });
});

describe('isUnfoldableLine', () => {
  const diff = parseDiffLines(PATCH);
  it.each([
    ['between the hunks, one line apart as the first hunk added one', { oldLine: 10, newLine: 11 }, true],
    ['between the hunks, with the wrong distance', { oldLine: 10, newLine: 10 }, false],
    ['after the last hunk, two lines apart', { oldLine: 30, newLine: 32 }, true],
    ['past the end of the file', { oldLine: 48, newLine: 50 }, false],
    ['inside a hunk (the diff shows it, or it changed)', { oldLine: 4, newLine: 4 }, false],
    ['with only one side', { oldLine: null, newLine: 11 }, false],
  ] as const)('%s → %s', (_name, request, expected) => {
    expect(isUnfoldableLine(diff, request, 40)).toBe(expected);
  });

  it('before a first hunk that starts further down', () => {
    const later = parseDiffLines('@@ -10,2 +10,3 @@\n a\n+b\n c\n');
    expect(isUnfoldableLine(later, { oldLine: 3, newLine: 3 }, 20)).toBe(true);
    expect(isUnfoldableLine(later, { oldLine: 12, newLine: 13 }, 20)).toBe(true);
    expect(isUnfoldableLine(later, { oldLine: 12, newLine: 12 }, 20)).toBe(false);
  });
});

describe('countLines', () => {
  it.each([
    ['', 0],
    ['one', 1],
    ['one\n', 1],
    ['one\ntwo', 2],
    ['one\ntwo\n', 2],
  ])('%j has %d lines', (text, expected) => {
    expect(countLines(text)).toBe(expected);
  });
});
