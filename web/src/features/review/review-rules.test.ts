import { describe, expect, it } from 'vitest';
import type { DraftNote } from './api';
import { draftRepliesByDiscussion, isDiffDraft, keyboardSubmitKind, newCommentDrafts, pendingCommentsText } from './review-rules';

const draft = (id: number, overrides: Partial<DraftNote> = {}): DraftNote => ({
  id,
  author_id: 1,
  merge_request_id: 1,
  resolve_discussion: false,
  discussion_id: null,
  note: `draft ${id}`,
  commit_id: null,
  line_code: null,
  position: {},
  ...overrides,
});

describe('pendingCommentsText', () => {
  it.each([
    [1, '1 pending comment'],
    [2, '2 pending comments'],
    [10, '10 pending comments'],
  ])('%d → %s', (count, text) => expect(pendingCommentsText(count)).toBe(text));
});

describe('keyboardSubmitKind', () => {
  it.each([
    // Ctrl/Cmd+Enter: a draft first when a review is in progress
    { shift: false, reviewInProgress: true, canReview: true, kind: 'draft' },
    { shift: false, reviewInProgress: false, canReview: true, kind: 'comment' },
    // Shift+Ctrl/Cmd+Enter: directly, past the review
    { shift: true, reviewInProgress: true, canReview: true, kind: 'comment' },
    { shift: true, reviewInProgress: false, canReview: true, kind: 'comment' },
    // a form without review actions (an edit) always sends
    { shift: false, reviewInProgress: true, canReview: false, kind: 'comment' },
  ] as const)('shift=$shift review=$reviewInProgress canReview=$canReview → $kind', ({ kind, ...input }) => expect(keyboardSubmitKind(input)).toBe(kind));
});

describe('splitting drafts', () => {
  const drafts = [draft(1), draft(2, { discussion_id: 'a' }), draft(3, { discussion_id: 'a' }), draft(4, { discussion_id: 'b' }), draft(5, { position: { new_path: 'x.ts', new_line: 3 } })];
  it('new comments are the drafts that reply to no thread, diff drafts included', () => {
    expect(newCommentDrafts(drafts).map((d) => d.id)).toEqual([1, 5]);
  });
  it('groups draft replies by thread, in order', () => {
    const byThread = draftRepliesByDiscussion(drafts);
    expect([...byThread.keys()]).toEqual(['a', 'b']);
    expect(byThread.get('a')!.map((d) => d.id)).toEqual([2, 3]);
  });
  it('tells a diff draft by its position ({} is none)', () => {
    expect(isDiffDraft(drafts[0]!)).toBe(false);
    expect(isDiffDraft(drafts[4]!)).toBe(true);
  });
});
