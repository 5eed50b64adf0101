import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { Note } from './note.js';
import { decodeCursor, EDIT_CONFLICT_MESSAGE, encodeCursor, noteBodyError, noteErrors, staleEditError, threadState } from './note-rules.js';

const note = (overrides: Partial<Note>): Note => ({
  id: 1,
  project_id: 1,
  merge_request_id: 1,
  discussion_id: 'a'.repeat(40),
  type: 'DiscussionNote',
  author_id: 1,
  body: 'x',
  system: false,
  system_action: null,
  position: null,
  original_position: null,
  line_code: null,
  commit_id: null,
  resolved_at: null,
  resolved_by_id: null,
  resolved_by_push: false,
  lock_version: 0,
  last_edited_at: null,
  updated_by_id: null,
  created_at: new Date('2024-01-01T00:00:00Z'),
  updated_at: new Date('2024-01-01T00:00:00Z'),
  internal: false,
  ...overrides,
});

describe('note body', () => {
  it("answers as GitLab's Note validation does", () => {
    expect(noteBodyError('  \n')?.body).toBe('400 Bad request - Note {:note=>["can\'t be blank"]}');
    expect(noteBodyError('x'.repeat(1_000_001))?.body).toBe('400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}');
    expect(noteBodyError('fine')).toBeNull();
  });

  it('formats several fields like Ruby inspects a hash', () => {
    expect(noteErrors({ line_code: ["can't be blank", 'must be a valid line code'] }).body).toBe('400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}');
  });
});

describe('staleEditError', () => {
  it('refuses an edit that started from an older version, with the specification text', () => {
    const error = staleEditError(3, 2);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error?.body).toBe(EDIT_CONFLICT_MESSAGE);
    expect(EDIT_CONFLICT_MESSAGE).toBe('This comment changed after you started editing it. Review the updated comment to ensure information is not lost.');
  });

  it('lets through an edit from the current version, or one that names none', () => {
    expect(staleEditError(3, 3)).toBeNull();
    expect(staleEditError(3, undefined)).toBeNull();
  });
});

describe('threadState', () => {
  const at = (iso: string) => new Date(iso);
  it('an individual note is neither resolvable nor resolved', () => {
    expect(threadState([note({ type: null })])).toEqual({ individual: true, resolvable: false, resolved: false, resolvedById: null, resolvedAt: null });
  });

  it('a thread is resolved when every resolvable note is, by whoever resolved the last one', () => {
    const state = threadState([
      note({ id: 1, resolved_at: at('2024-01-02T00:00:00Z'), resolved_by_id: 7 }),
      note({ id: 2, resolved_at: at('2024-01-03T00:00:00Z'), resolved_by_id: 8 }),
    ]);
    expect(state).toMatchObject({ individual: false, resolvable: true, resolved: true, resolvedById: 8 });
  });

  it('one open note keeps the thread open; system notes do not count', () => {
    expect(threadState([note({ id: 1, resolved_at: at('2024-01-02T00:00:00Z') }), note({ id: 2 })]).resolved).toBe(false);
    expect(threadState([note({ system: true, type: null })]).resolvable).toBe(false);
  });
});

describe('keyset cursor', () => {
  it('round-trips microseconds exactly', () => {
    const cursor = { createdAt: '2024-05-06T07:08:09.123456Z', seq: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each(['', 'not base64 json', Buffer.from('{"c":"yesterday","s":1}').toString('base64url'), Buffer.from('null').toString('base64url'), Buffer.from('{"c":"2024-05-06T07:08:09.123456Z","s":"1"}').toString('base64url'), Buffer.from('{"c":"2024-13-45T99:99:99.000000Z","s":1}').toString('base64url')])(
    'refuses %j with a 400',
    (text) => {
      expect(() => decodeCursor(text)).toThrow(ValidationError);
    },
  );
});
