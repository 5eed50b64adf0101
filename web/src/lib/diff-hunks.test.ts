import { describe, expect, it } from 'vitest';
import { firstLineOf, parseDiffHunks, parseHunkHeader, unifiedLines } from './diff-hunks';

const diff = `@@ -1,3 +1,4 @@
 line one
-line two
+line 2
+line 2b
 line three
@@ -10 +11 @@ function x() {
-old
+new
\\ No newline at end of file
`;

describe('parseHunkHeader', () => {
  it('reads ranges, an omitted count meaning 1', () => {
    expect(parseHunkHeader('@@ -10 +11,0 @@ fn')).toEqual({ oldStart: 10, oldCount: 1, newStart: 11, newCount: 0 });
    expect(parseHunkHeader('not a hunk')).toBeNull();
  });
});

describe('parseDiffHunks', () => {
  it('groups numbered lines into hunks and counts changes', () => {
    const parsed = parseDiffHunks(diff);
    expect(parsed.added).toBe(3);
    expect(parsed.removed).toBe(2);
    expect(parsed.hunks).toHaveLength(2);
    expect(parsed.hunks[0]).toMatchObject({ oldStart: 1, oldCount: 3, newStart: 1, newCount: 4 });
    expect(parsed.hunks[0]!.lines[3]).toEqual({ type: 'add', text: 'line 2b', oldLine: null, newLine: 3 });
    expect(parsed.hunks[0]!.lines[4]).toEqual({ type: 'context', text: 'line three', oldLine: 3, newLine: 4 });
    expect(parsed.hunks[1]!.header).toBe('@@ -10 +11 @@ function x() {');
    expect(parsed.hunks[1]!.lines).toEqual([
      { type: 'delete', text: 'old', oldLine: 10, newLine: null },
      { type: 'add', text: 'new', oldLine: null, newLine: 11 },
      { type: 'note', text: 'No newline at end of file' },
    ]);
  });

  it('keeps a binary notice as preamble and drops file headers', () => {
    const parsed = parseDiffHunks('--- a/x\n+++ b/x\nBinary files a/logo.png and b/logo.png differ\n');
    expect(parsed).toEqual({ hunks: [], preamble: ['Binary files a/logo.png and b/logo.png differ'], added: 0, removed: 0 });
  });

  it('treats a bare empty line inside a hunk as context', () => {
    const parsed = parseDiffHunks('@@ -1,2 +1,2 @@\n\n-a\n+b\n');
    expect(parsed.hunks[0]!.lines[0]).toEqual({ type: 'context', text: '', oldLine: 1, newLine: 1 });
  });

  it('starts a hunk only at a real header: other lines are read by their first character', () => {
    const parsed = parseDiffHunks('@@ -1,2 +1,2 @@\n@@decorator\n+@@ -9 +9 @@\n');
    expect(parsed.hunks).toHaveLength(1);
    expect(parsed.hunks[0]!.lines).toEqual([
      { type: 'context', text: '@decorator', oldLine: 1, newLine: 1 },
      { type: 'add', text: '@@ -9 +9 @@', oldLine: null, newLine: 2 },
    ]);
  });

  it('is empty for an empty diff', () => {
    expect(parseDiffHunks('')).toEqual({ hunks: [], preamble: [], added: 0, removed: 0 });
  });
});

describe('firstLineOf', () => {
  it('moves past the line a zero-count range names', () => {
    expect(firstLineOf(3, 0)).toBe(4);
    expect(firstLineOf(3, 2)).toBe(3);
  });
});

describe('unifiedLines', () => {
  it('lists hunk headers and numbered lines in order, notes where git printed them', () => {
    const parsed = parseDiffHunks(`@@ -1,3 +1,4 @@
 line one
-line two
+line 2
+line 2b
 line three
\\ No newline at end of file
@@ -10 +11 @@ function x() {
-old
+new
`);
    expect(unifiedLines(parsed)).toEqual([
      { type: 'hunk', text: '@@ -1,3 +1,4 @@' },
      { type: 'context', text: 'line one', oldLine: 1, newLine: 1 },
      { type: 'delete', text: 'line two', oldLine: 2, newLine: null },
      { type: 'add', text: 'line 2', oldLine: null, newLine: 2 },
      { type: 'add', text: 'line 2b', oldLine: null, newLine: 3 },
      { type: 'context', text: 'line three', oldLine: 3, newLine: 4 },
      { type: 'note', text: 'No newline at end of file' },
      { type: 'hunk', text: '@@ -10 +11 @@ function x() {' },
      { type: 'delete', text: 'old', oldLine: 10, newLine: null },
      { type: 'add', text: 'new', oldLine: null, newLine: 11 },
    ]);
    expect({ added: parsed.added, removed: parsed.removed }).toEqual({ added: 3, removed: 2 });
  });

  it('skips file headers and is empty for an empty diff', () => {
    expect(unifiedLines(parseDiffHunks('--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+hi\n'))).toEqual([
      { type: 'hunk', text: '@@ -0,0 +1 @@' },
      { type: 'add', text: 'hi', oldLine: null, newLine: 1 },
    ]);
    expect(unifiedLines(parseDiffHunks(''))).toEqual([]);
  });

  it("shows git's binary notice as a note", () => {
    expect(unifiedLines(parseDiffHunks('Binary files /dev/null and b/blob.bin differ\n'))).toEqual([{ type: 'note', text: 'Binary files /dev/null and b/blob.bin differ' }]);
  });
});
