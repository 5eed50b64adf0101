import { describe, expect, it } from 'vitest';
import type { DiscussionEntity } from '../notes/types';
import type { DraftNote } from './api';
import { imagePins, indexDiffThreads, isOutdated, threadLines } from './threads';

const refs = { base_sha: 'a'.repeat(40), start_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40) };
const note = (position: unknown) => ({ id: 1, type: 'DiffNote', body: 'x', position }) as unknown as DiscussionEntity['notes'][number];
const thread = (id: string, position: unknown): DiscussionEntity => ({ id, individual_note: false, notes: [note(position)] });
const draft = (id: number, position: unknown, discussion_id: string | null = null) => ({ id, note: 'd', position, discussion_id }) as unknown as DraftNote;

describe('indexDiffThreads', () => {
  const line = { ...refs, position_type: 'text', old_path: 'a.ts', new_path: 'a.ts', old_line: null, new_line: 3, line_range: null };
  const file = { ...refs, position_type: 'file', old_path: 'a.ts', new_path: 'a.ts' };
  const image = { ...refs, position_type: 'image', old_path: 'i.png', new_path: 'i.png', x: 1, y: 2, width: 10, height: 10 };

  it('places threads by file and line, file-wide and image ones apart', () => {
    const index = indexDiffThreads([thread('t1', line), thread('t2', file), thread('t3', image), { id: 'plain', individual_note: true, notes: [note(undefined)] }], [], refs.head_sha);
    expect(index.threads.get('a.ts')?.lines.get('_3')?.map((t) => t.id)).toEqual(['t1']);
    expect(index.threads.get('a.ts')?.file.map((t) => t.id)).toEqual(['t2']);
    expect(index.threads.get('i.png')?.image.map((t) => t.id)).toEqual(['t3']);
    expect(index.threads.size).toBe(2);
  });

  it('leaves out threads of another version and draft replies', () => {
    const index = indexDiffThreads([thread('old', { ...line, head_sha: 'd'.repeat(40) })], [draft(1, line), draft(2, {}, 'abc')], refs.head_sha);
    expect(index.threads.size).toBe(0);
    const outdated = thread('outdated', line);
    (outdated.notes[0] as { outdated_line_change_path?: string }).outdated_line_change_path = '/g/p/notes/1/outdated_line_change';
    expect(indexDiffThreads([outdated], [], refs.head_sha).threads.size).toBe(0);
    expect(index.drafts.get('a.ts')?.lines.get('_3')?.map((d) => d.id)).toEqual([1]);
  });

  it('numbers image pins, drafts after threads', () => {
    expect(imagePins([thread('t3', image)], [draft(5, image)]).map((pin) => [pin.number, pin.draft])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('marks a thread outdated only when the server says so', () => {
    expect(isOutdated(thread('t', line))).toBe(false);
    const outdated = thread('t', line);
    (outdated.notes[0] as unknown as Record<string, unknown>).outdated_line_change_path = '/x';
    expect(isOutdated(outdated)).toBe(true);
  });
});

describe('threadLines', () => {
  const text = (line_range: unknown) => ({ ...refs, position_type: 'text', old_path: 'a', new_path: 'a', old_line: null, new_line: 7, line_range });
  it('names the first and last line of a multi-line thread', () => {
    const range = { start: { line_code: 'x_0_5', type: 'new', old_line: null, new_line: 5 }, end: { line_code: 'x_0_7', type: 'new', old_line: null, new_line: 7 } };
    expect(threadLines(thread('t', text(range)))).toBe('+5 to +7');
  });
  it('says nothing for one line, or a thread without a position', () => {
    expect(threadLines(thread('t', text(null)))).toBeNull();
    expect(threadLines({ id: 'n', individual_note: true, notes: [{ id: 2, type: null, body: 'x' } as unknown as DiscussionEntity['notes'][number]] })).toBeNull();
  });
});
