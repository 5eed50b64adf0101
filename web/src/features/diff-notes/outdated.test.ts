import { describe, expect, it } from 'vitest';
import type { DiscussionEntity } from '../notes/types';
import { diffThreadAction, outdatedLinesPath, outdatedRows } from './outdated';

const position = { position_type: 'text', base_sha: 'a'.repeat(40), start_sha: 'a'.repeat(40), head_sha: 'b'.repeat(40), old_path: 'a.ts', new_path: 'a.ts', old_line: null, new_line: 3 };
const thread = (note: Record<string, unknown>): DiscussionEntity => ({ id: 'd1', individual_note: false, notes: [{ id: 1, body: 'x', ...note }] }) as unknown as DiscussionEntity;

describe('diffThreadAction (GitLab noteable_discussion actionText)', () => {
  it('says the diff, an old version of it, or nothing for a thread not on the diff', () => {
    expect(diffThreadAction(thread({ position }))).toBe('started a thread on the diff');
    expect(diffThreadAction(thread({ position, outdated_line_change_path: '/g/p/notes/1/outdated_line_change' }))).toBe('started a thread on an old version of the diff');
    expect(diffThreadAction(thread({}))).toBeNull();
  });
});

describe('outdatedLinesPath', () => {
  it('takes a path of this site only', () => {
    expect(outdatedLinesPath(thread({ outdated_line_change_path: '/g/p/notes/1/outdated_line_change' }))).toBe('/g/p/notes/1/outdated_line_change');
    expect(outdatedLinesPath(thread({ outdated_line_change_path: '//evil.example/x' }))).toBeNull();
    expect(outdatedLinesPath(thread({ outdated_line_change_path: 'https://evil.example/x' }))).toBeNull();
    expect(outdatedLinesPath(thread({ outdated_line_change_path: null }))).toBeNull();
  });
});

describe('outdatedRows', () => {
  it('turns the answer into -/+ rows with both line numbers and the text without its marker', () => {
    const rows = outdatedRows([
      { line_code: 'c_1_1', type: null, old_line: 1, new_line: 1, text: ' keep', rich_text: 'keep' },
      { line_code: 'c_2_2', type: 'old', old_line: 2, new_line: null, text: '-<b>old</b>', rich_text: '&lt;b&gt;old&lt;/b&gt;' },
      { line_code: 'c_3_2', type: 'new', old_line: null, new_line: 2, text: '+new', rich_text: 'new' },
    ]);
    expect(rows.map((row) => [row.marker, row.oldLine, row.newLine, row.content, row.kind])).toEqual([
      [' ', 1, 1, 'keep', 'context'],
      ['-', 2, null, '<b>old</b>', 'removed'],
      ['+', null, 2, 'new', 'added'],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(3);
  });
});
