import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../../domains/notes/note-rules.js';
import { coerceInput } from '../../input/coerce.js';
import { DiscussionCreate, discussionCreateInput, DiscussionList, discussionNoteChange, DiscussionNoteUpdate, discussionPage, DraftCreate, draftCreateInput, NoteList, noteOrder, NoteUpdate, noteUpdateInput } from './input.js';

const sha = (c: string) => c.repeat(40);
const mr = { id: '1', iid: '1' };

describe('notes route input', () => {
  it('reads note ids that are non-negative integers only (404 otherwise)', () => {
    expect(coerceInput(NoteUpdate, { ...mr, note_id: '42', body: 'x' })).toMatchObject({ note_id: 42 });
    for (const bad of ['4e2', '-1', '1'.repeat(20)]) expect(() => coerceInput(NoteUpdate, { ...mr, note_id: bad, body: 'x' })).toThrow('404 Note Not Found');
  });

  it('orders notes newest first by creation unless told, from fixed lists only', () => {
    expect(noteOrder(coerceInput(NoteList, mr))).toEqual({ orderBy: 'created_at', sort: 'desc' });
    expect(noteOrder(coerceInput(NoteList, { ...mr, order_by: 'updated_at', sort: 'asc' }))).toEqual({ orderBy: 'updated_at', sort: 'asc' });
    expect(() => coerceInput(NoteList, { ...mr, order_by: 'body; DROP TABLE notes' })).toThrow('order_by does not have a valid value');
  });

  it('takes lock_version when sent, as a number', () => {
    expect(noteUpdateInput(coerceInput(NoteUpdate, { ...mr, note_id: '1', body: 'x' }))).toEqual({ body: 'x' });
    expect(noteUpdateInput(coerceInput(NoteUpdate, { ...mr, note_id: '1', body: 'x', lock_version: '3' }))).toEqual({ body: 'x', lockVersion: 3 });
  });

  it('takes exactly one of body and resolved on a discussion note (Grape’s exactly_one_of)', () => {
    const change = (raw: Record<string, unknown>) => discussionNoteChange(coerceInput(DiscussionNoteUpdate, { ...mr, discussion_id: 'd', note_id: '1', ...raw }));
    expect(change({ resolved: 'true' })).toEqual({ kind: 'resolved', resolved: true });
    expect(change({ body: 'b' })).toEqual({ kind: 'body', body: 'b' });
    expect(() => change({ body: 'b', resolved: true })).toThrow('mutually exclusive');
    expect(() => change({})).toThrow('exactly one parameter must be provided');
  });

  it('pages discussions by offset by default and by keyset when asked', () => {
    const page = (raw: Record<string, unknown>) => discussionPage(coerceInput(DiscussionList, { ...mr, ...raw }));
    expect(page({ page: '2', per_page: '10' })).toEqual({ kind: 'offset', limit: 10, offset: 10 });
    expect(page({ pagination: 'keyset', per_page: '500' })).toEqual({ kind: 'keyset', limit: 100, after: null });
    const cursor = encodeCursor({ createdAt: '2024-01-01T00:00:00.000001Z', seq: 7 });
    expect(page({ pagination: 'keyset', cursor })).toEqual({ kind: 'keyset', limit: 20, after: { createdAt: '2024-01-01T00:00:00.000001Z', seq: 7 } });
  });

  it('reads a nested multipart position into a discussion', () => {
    const create = (raw: Record<string, unknown>) => discussionCreateInput(coerceInput(DiscussionCreate, { ...mr, ...raw }));
    const input = create({
      body: 'On a line',
      position: { base_sha: sha('a'), start_sha: sha('b'), head_sha: sha('c'), position_type: 'text', new_path: 'a.txt', old_path: 'a.txt', new_line: '5' },
    });
    expect(input).toMatchObject({ body: 'On a line', internal: false, position: { position_type: 'text', new_line: 5, old_line: null } });
    expect(create({ body: 'plain', internal: 'true' })).toEqual({ body: 'plain', internal: true });
    expect(() => create({})).toThrow('body is missing');
  });

  it('ignores the commit id "undefined" on drafts, as GitLab does', () => {
    expect(draftCreateInput(coerceInput(DraftCreate, { ...mr, note: 'n', commit_id: 'undefined' }))).toEqual({ note: 'n', resolveDiscussion: false, internal: false });
  });
});
