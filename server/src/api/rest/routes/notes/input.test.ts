import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../../domains/notes/note-rules.js';
import { ValidationError } from '../../../../platform/errors.js';
import { parseCreateDiscussion, parseCreateDraft, parseDiscussionNoteUpdate, parseDiscussionPage, parseId, parseNoteOrder, parseUpdateNote } from './input.js';

const sha = (c: string) => c.repeat(40);

describe('notes route input', () => {
  it('reads ids that are positive integers only', () => {
    expect(parseId('42')).toBe(42);
    expect(Number.isNaN(parseId('4e2'))).toBe(true);
    expect(Number.isNaN(parseId('-1'))).toBe(true);
    expect(Number.isNaN(parseId('1'.repeat(20)))).toBe(true);
  });

  it('orders notes newest first by creation unless told, from fixed lists only', () => {
    expect(parseNoteOrder({})).toEqual({ orderBy: 'created_at', sort: 'desc' });
    expect(parseNoteOrder({ order_by: 'updated_at', sort: 'asc' })).toEqual({ orderBy: 'updated_at', sort: 'asc' });
    expect(() => parseNoteOrder({ order_by: 'body; DROP TABLE notes' })).toThrow(ValidationError);
  });

  it('takes lock_version when sent, as a number', () => {
    expect(parseUpdateNote({ body: 'x' })).toEqual({ body: 'x' });
    expect(parseUpdateNote({ body: 'x', lock_version: '3' })).toEqual({ body: 'x', lockVersion: 3 });
  });

  it('takes exactly one of body and resolved on a discussion note (Grape’s exactly_one_of)', () => {
    expect(parseDiscussionNoteUpdate({ resolved: 'true' })).toEqual({ kind: 'resolved', resolved: true });
    expect(parseDiscussionNoteUpdate({ body: 'b' })).toEqual({ kind: 'body', body: 'b' });
    expect(() => parseDiscussionNoteUpdate({ body: 'b', resolved: true })).toThrow('mutually exclusive');
    expect(() => parseDiscussionNoteUpdate({})).toThrow('exactly one parameter must be provided');
  });

  it('pages discussions by offset by default and by keyset when asked', () => {
    expect(parseDiscussionPage({ page: '2', per_page: '10' })).toEqual({ kind: 'offset', limit: 10, offset: 10 });
    expect(parseDiscussionPage({ pagination: 'keyset', per_page: '500' })).toEqual({ kind: 'keyset', limit: 100, after: null });
    const cursor = encodeCursor({ createdAt: '2024-01-01T00:00:00.000001Z', seq: 7 });
    expect(parseDiscussionPage({ pagination: 'keyset', cursor })).toEqual({ kind: 'keyset', limit: 20, after: { createdAt: '2024-01-01T00:00:00.000001Z', seq: 7 } });
  });

  it('reads a nested multipart position into a discussion', () => {
    const input = parseCreateDiscussion({
      body: 'On a line',
      position: { base_sha: sha('a'), start_sha: sha('b'), head_sha: sha('c'), position_type: 'text', new_path: 'a.txt', old_path: 'a.txt', new_line: '5' },
    });
    expect(input).toMatchObject({ body: 'On a line', internal: false, position: { position_type: 'text', new_line: 5, old_line: null } });
    expect(parseCreateDiscussion({ body: 'plain', internal: 'true' })).toEqual({ body: 'plain', internal: true });
  });

  it('ignores the commit id "undefined" on drafts, as GitLab does', () => {
    expect(parseCreateDraft({ note: 'n', commit_id: 'undefined' })).toEqual({ note: 'n', resolveDiscussion: false, internal: false });
  });
});
