import { describe, expect, it } from 'vitest';
import { parseDiffHunks } from './diff-hunks';
import { buildDiffRows, lineCountFromPatch, wholeFileRows } from './diff-rows';

const newFile = Array.from({ length: 20 }, (_, i) => `n${i + 1}`);
// Line 10 changed in a 20-line file.
const parsed = parseDiffHunks('@@ -7,7 +7,7 @@\n n7\n n8\n n9\n-o10\n+n10\n n11\n n12\n n13\n');

describe('buildDiffRows', () => {
  it('puts an expander above and below the hunk until the file is fetched', () => {
    const rows = buildDiffRows({ parsed, newLines: null, knownLineCount: null, expansions: {} });
    expect(rows[0]).toEqual({ type: 'expander', gapIndex: 0, header: '@@ -7,7 +7,7 @@', hidden: 6, directions: ['up', 'all'] });
    expect(rows.slice(1, -1).map((row) => row.type)).toEqual(['context', 'context', 'context', 'delete', 'add', 'context', 'context', 'context']);
    expect(rows[rows.length - 1]).toEqual({ type: 'expander', gapIndex: 1, header: null, hidden: null, directions: ['down', 'all'] });
  });

  it('inserts revealed context lines with both line numbers', () => {
    const rows = buildDiffRows({ parsed, newLines: newFile, knownLineCount: null, expansions: { 0: { top: 0, bottom: 2 }, 1: { top: 3, bottom: 0 } } });
    expect(rows.slice(0, 3)).toEqual([
      { type: 'expander', gapIndex: 0, header: '@@ -7,7 +7,7 @@', hidden: 4, directions: ['up', 'all'] },
      { type: 'context', text: 'n5', oldLine: 5, newLine: 5, expanded: true },
      { type: 'context', text: 'n6', oldLine: 6, newLine: 6, expanded: true },
    ]);
    expect(rows.slice(-4)).toEqual([
      { type: 'context', text: 'n14', oldLine: 14, newLine: 14, expanded: true },
      { type: 'context', text: 'n15', oldLine: 15, newLine: 15, expanded: true },
      { type: 'context', text: 'n16', oldLine: 16, newLine: 16, expanded: true },
      { type: 'expander', gapIndex: 1, header: null, hidden: 4, directions: ['down', 'all'] },
    ]);
  });

  it('drops the expander once a gap is fully open', () => {
    const rows = buildDiffRows({ parsed, newLines: newFile, knownLineCount: null, expansions: { 0: { top: 99, bottom: 0 }, 1: { top: 99, bottom: 0 } } });
    expect(rows.some((row) => row.type === 'expander')).toBe(false);
    expect(rows).toHaveLength(20 + 1);
  });

  it('shows a plain header for a hunk at line 1 and no trailing expander at the end of a new file', () => {
    const added = parseDiffHunks('@@ -0,0 +1,2 @@\n+a\n+b\n');
    const rows = buildDiffRows({ parsed: added, newLines: null, knownLineCount: lineCountFromPatch(added, { newFile: true, deletedFile: false }), expansions: {} });
    expect(rows).toEqual([
      { type: 'hunk', header: '@@ -0,0 +1,2 @@' },
      { type: 'add', text: 'a', oldLine: null, newLine: 1 },
      { type: 'add', text: 'b', oldLine: null, newLine: 2 },
    ]);
  });
});

describe('lineCountFromPatch', () => {
  it('knows the length of new and deleted files and of files ending without a newline', () => {
    expect(lineCountFromPatch(parseDiffHunks('@@ -1 +0,0 @@\n-a\n'), { newFile: false, deletedFile: true })).toBe(0);
    expect(lineCountFromPatch(parseDiffHunks('@@ -3,2 +3,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n'), { newFile: false, deletedFile: false })).toBe(4);
    expect(lineCountFromPatch(parsed, { newFile: false, deletedFile: false })).toBeNull();
  });
});

describe('wholeFileRows', () => {
  it('numbers every line on both sides', () => {
    expect(wholeFileRows(['a', 'b'])).toEqual([
      { type: 'context', text: 'a', oldLine: 1, newLine: 1 },
      { type: 'context', text: 'b', oldLine: 2, newLine: 2 },
    ]);
  });
});
