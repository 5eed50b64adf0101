import { describe, expect, it } from 'vitest';
import {
  activityFormKind,
  autosaveKey,
  commitList,
  filterDiscussions,
  FILTER_ALL,
  FILTER_COMMENTS,
  FILTER_HISTORY,
  lastOwnNote,
  noteIdFromHash,
  parseFilter,
  parseSort,
  replyAuthors,
  resolutionText,
  roleBadge,
  roleBadges,
  sortDiscussions,
  systemNoteIcon,
} from './activity';
import type { DiscussionEntity, NoteEntity } from './types';

const user = (id: number) => ({ id, username: `u${id}`, name: `User ${id}`, state: 'active', avatar_url: null, web_url: '' });
let nextId = 1;
function note(overrides: Partial<NoteEntity> = {}): NoteEntity {
  const id = nextId++;
  return { id, type: null, body: 'text', author: user(1), created_at: `2026-01-01T00:00:${String(id).padStart(2, '0')}Z`, updated_at: '', system: false, resolvable: false, internal: false, lock_version: 0, ...overrides };
}
const discussion = (notes: NoteEntity[], individual = notes.length === 1 && notes[0]!.type === null): DiscussionEntity => ({ id: `d${notes[0]!.id}`, individual_note: individual, notes });

describe('filterDiscussions', () => {
  const system = discussion([note({ system: true, body: 'merged' })]);
  const comment = discussion([note()]);
  it('keeps everything, comments only or history only', () => {
    expect(filterDiscussions([system, comment], FILTER_ALL)).toEqual([system, comment]);
    expect(filterDiscussions([system, comment], FILTER_COMMENTS)).toEqual([comment]);
    expect(filterDiscussions([system, comment], FILTER_HISTORY)).toEqual([system]);
  });
});

describe('sortDiscussions', () => {
  it('orders by the first note, oldest or newest first', () => {
    const a = discussion([note()]);
    const b = discussion([note()]);
    expect(sortDiscussions([b, a], 'asc')).toEqual([a, b]);
    expect(sortDiscussions([a, b], 'desc')).toEqual([b, a]);
  });
});

describe('storage values', () => {
  it("builds GitLab's autosave key, with the internal suffix", () => {
    expect(autosaveKey('MergeRequest', 7)).toBe('note/MergeRequest/7');
    expect(autosaveKey('MergeRequest', 7, { internal: true })).toBe('note/MergeRequest/7/internal');
    expect(autosaveKey('MergeRequest', 7, { discussionId: 'abc' })).toBe('note/MergeRequest/7/reply/abc');
  });
  it('reads stored sort and filter values, falling back to the defaults', () => {
    expect(parseSort('desc')).toBe('desc');
    expect(parseSort(null)).toBe('asc');
    expect(parseFilter('2')).toBe(FILTER_HISTORY);
    expect(parseFilter('junk')).toBe(FILTER_ALL);
  });
  it('reads the note id of a #note_ hash', () => {
    expect(noteIdFromHash('#note_42')).toBe(42);
    expect(noteIdFromHash('#notes')).toBeNull();
  });
});

describe('roleBadge', () => {
  it("names the merge request's author only", () => {
    expect(roleBadge(note({ author: user(5) }), 5)).toBe('Author');
    expect(roleBadge(note({ author: user(6) }), 5)).toBeNull();
    expect(roleBadge(note({ author: null }), 5)).toBeNull();
  });
});

describe('roleBadges (Author, Contributor, or the access level)', () => {
  const author = note({ author: user(5) });
  const other = note({ author: user(6) });
  it.each([
    ['the author who owns the project', author, { access_level: 50, contributor: false }, ['Author', 'Owner']],
    ['a maintainer', other, { access_level: 40, contributor: false }, ['Maintainer']],
    ['a developer', other, { access_level: 30, contributor: false }, ['Developer']],
    ['a reporter', other, { access_level: 20, contributor: false }, ['Reporter']],
    ['a guest', other, { access_level: 10, contributor: false }, ['Guest']],
    ['a non-member who contributed', other, { access_level: null, contributor: true }, ['Contributor']],
    ['a non-member author who contributed', author, { access_level: null, contributor: true }, ['Author', 'Contributor']],
    ['a non-member', other, { access_level: null, contributor: false }, []],
    ['roles not loaded: the author badge only', author, undefined, ['Author']],
    ['a deleted user', note({ author: null }), { access_level: 30, contributor: false }, []],
  ] as const)('%s', (_, subject, role, expected) => expect(roleBadges(subject, 5, role)).toEqual(expected));
});

describe('activityFormKind', () => {
  it.each([
    ['a signed-out visitor gets the sign-in prompt', { filter: FILTER_ALL, signedIn: false, canReply: false }, 'sign-in'],
    ['comments only, signed out: the prompt too', { filter: FILTER_COMMENTS, signedIn: false, canReply: false }, 'sign-in'],
    ['history only: the notice, signed in or not', { filter: FILTER_HISTORY, signedIn: false, canReply: false }, 'history-notice'],
    ['a user who may comment gets the form', { filter: FILTER_ALL, signedIn: true, canReply: true }, 'form'],
    ['a locked discussion, not a member: nothing', { filter: FILTER_ALL, signedIn: true, canReply: false }, 'none'],
  ] as const)('%s', (_, input, expected) => expect(activityFormKind(input)).toBe(expected));
});

describe('system notes', () => {
  it('picks an icon from the wording', () => {
    expect(systemNoteIcon('added 2 commits\n\n<ul></ul>')).toBe('commit');
    expect(systemNoteIcon('merged')).toBe('merge');
    expect(systemNoteIcon('changed title from **a** to **b**')).toBe('pencil');
    expect(systemNoteIcon('assigned to @a and unassigned @b')).toBe('person');
    expect(systemNoteIcon('requested review from @a')).toBe('person');
    expect(systemNoteIcon('something new')).toBe('info');
  });
  it('splits a commit list into its parts, unescaped', () => {
    const parsed = commitList('added 2 commits\n\n<ul><li>abc - Fix &lt;b&gt;</li><li>def - Two</li></ul>\n\n[Compare with previous version](/x)');
    expect(parsed).toEqual({ before: 'added 2 commits', items: ['abc - Fix <b>', 'def - Two'], after: '[Compare with previous version](/x)' });
    expect(commitList('merged')).toBeNull();
  });
});

describe('threads', () => {
  it("finds the user's last own note", () => {
    const first = note({ author: user(2) });
    const mine = note({ author: user(2) });
    const other = note({ author: user(3) });
    expect(lastOwnNote([discussion([first]), discussion([mine, other])], 2)).toBe(mine);
    expect(lastOwnNote([discussion([other])], 2)).toBeNull();
  });
  it('says Resolved or Automatically resolved once every resolvable note is', () => {
    const open = discussion([note({ type: 'DiscussionNote', resolvable: true, resolved: false })], false);
    const done = discussion([note({ type: 'DiscussionNote', resolvable: true, resolved: true })], false);
    expect(resolutionText(open)).toBeNull();
    expect(resolutionText(done)).toBe('Resolved');
    expect(resolutionText(done, true)).toBe('Automatically resolved');
  });
  it('lists distinct repliers, at most five', () => {
    const notes = [note({ author: user(1) }), ...[2, 3, 2, 4, 5, 6, 7].map((id) => note({ author: user(id) }))];
    expect(replyAuthors(discussion(notes, false)).map((author) => author.id)).toEqual([2, 3, 4, 5, 6]);
  });
});
