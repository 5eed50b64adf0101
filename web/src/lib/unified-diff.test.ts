import { describe, expect, it } from 'vitest';
import { diffStats, parseUnifiedDiff } from './unified-diff';

const diff = `@@ -1,3 +1,4 @@
 line one
-line two
+line 2
+line 2b
 line three
\\ No newline at end of file
@@ -10 +11 @@ function x() {
-old
+new
`;

describe('parseUnifiedDiff', () => {
  it('numbers old and new lines per hunk', () => {
    const lines = parseUnifiedDiff(diff);
    expect(lines).toEqual([
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
    expect(diffStats(lines)).toEqual({ additions: 3, deletions: 2 });
  });

  it('skips file headers and returns nothing for an empty diff', () => {
    expect(parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+hi\n')).toEqual([
      { type: 'hunk', text: '@@ -0,0 +1 @@' },
      { type: 'add', text: 'hi', oldLine: null, newLine: 1 },
    ]);
    expect(parseUnifiedDiff('')).toEqual([]);
  });

  it("shows git's binary notice as a note", () => {
    expect(parseUnifiedDiff('Binary files /dev/null and b/blob.bin differ\n')).toEqual([
      { type: 'note', text: 'Binary files /dev/null and b/blob.bin differ' },
    ]);
  });
});
