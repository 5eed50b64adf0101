import { describe, expect, it } from 'vitest';
import { lineCode } from './position.js';
import { diffTextLines, outdatedExcerpt } from './position-tracer-lines.js';

const PATH = 'src/file.txt';
const PATCH = '@@ -1,3 +1,3 @@\n l1\n-l2\n+<b>l2</b>\n l3\n@@ -10,7 +10,7 @@\n l10\n l11\n l12\n-l13\n+L13\n l14\n l15\n l16\n\\ No newline at end of file\n';

describe('diffTextLines', () => {
  it('counts lines as the diff parser does and keeps their text and hunk', () => {
    const lines = diffTextLines(PATCH);
    expect(lines).toHaveLength(12);
    expect(lines[2]).toEqual({ type: 'new', old_line: null, new_line: 2, text: '+<b>l2</b>', oldPosition: 3, newPosition: 2, hunk: 0 });
    expect(lines[8]).toMatchObject({ type: 'new', new_line: 13, hunk: 1 });
  });
});

describe('outdatedExcerpt (GitLab OutdatedDiscussionDiffLinesService)', () => {
  it('shows the changed line with two lines of its hunk each side', () => {
    const lines = outdatedExcerpt(PATCH, PATH, { oldLine: 13, newLine: null });
    expect(lines.map((line) => line.text)).toEqual([' l11', ' l12', '-l13', '+L13', ' l14']);
    expect(lines[2]).toEqual({ line_code: lineCode(PATH, 13, 13), type: 'old', old_line: 13, new_line: null, text: '-l13', rich_text: 'l13' });
  });

  it('stays inside the hunk and escapes the text as HTML', () => {
    const lines = outdatedExcerpt(PATCH, PATH, { oldLine: null, newLine: 2 });
    expect(lines.map((line) => line.text)).toEqual([' l1', '-l2', '+<b>l2</b>', ' l3']);
    expect(lines[2]!.rich_text).toBe('&lt;b&gt;l2&lt;/b&gt;');
  });

  it('finds a line by one of its numbers when both do not match, and nothing when the diff lacks it', () => {
    expect(outdatedExcerpt(PATCH, PATH, { oldLine: 99, newLine: 14 })[2]).toMatchObject({ text: ' l14' });
    expect(outdatedExcerpt(PATCH, PATH, { oldLine: 50, newLine: null })).toEqual([]);
  });
});
