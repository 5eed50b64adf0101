import { describe, expect, it } from 'vitest';
import { mergeRequestGlobalId } from '@tributary/contracts';
import { AWARDABLE_ID, coerceGlobalId, DISCUSSION_ID, globalId, GlobalIdError, NOTE_ID, NOTEABLE_ID, parseGlobalId, recordId } from './global-id.js';

describe('global ids', () => {
  it('writes GitLab global ids, the same as the web contract', () => {
    expect(globalId('MergeRequest', 42)).toBe('gid://gitlab/MergeRequest/42');
    expect(globalId('MergeRequest', 42)).toBe(mergeRequestGlobalId(42));
  });

  it.each([
    ['gid://gitlab/MergeRequest/42', ['MergeRequest'], { type: 'MergeRequest', id: 42 }],
    ['gid://gitlab/Project/7', ['MergeRequest', 'Project'], { type: 'Project', id: 7 }],
    ['gid://gitlab/Project/7', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/0', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/-1', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/1e3', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/99999999999999999999', ['MergeRequest'], null],
    ['gid://other/MergeRequest/1', ['MergeRequest'], null],
    [' gid://gitlab/MergeRequest/1', ['MergeRequest'], null],
    ['42', ['MergeRequest'], null],
    [42, ['MergeRequest'], null],
    [null, ['MergeRequest'], null],
  ] as const)('parses %j as %j', (value, types, expected) => {
    expect(parseGlobalId(value, types)).toEqual(expected);
  });
});

describe('typed id arguments (GitLab GlobalIDType coercion)', () => {
  it.each([
    ['gid://gitlab/Note/1', NOTE_ID, { type: 'Note', id: '1' }],
    ['gid://gitlab/DiffNote/7', NOTE_ID, { type: 'DiffNote', id: '7' }],
    ['gid://gitlab/DiscussionNote/7', NOTE_ID, { type: 'DiscussionNote', id: '7' }],
    [`gid://gitlab/Discussion/${'a'.repeat(40)}`, DISCUSSION_ID, { type: 'Discussion', id: 'a'.repeat(40) }],
    [`gid://gitlab/IndividualNoteDiscussion/${'b'.repeat(40)}`, DISCUSSION_ID, { type: 'IndividualNoteDiscussion', id: 'b'.repeat(40) }],
    ['gid://gitlab/MergeRequest/3', NOTEABLE_ID, { type: 'MergeRequest', id: '3' }],
    ['gid://gitlab/DiffNote/3', AWARDABLE_ID, { type: 'DiffNote', id: '3' }],
  ] as const)('admits %j', (value, scalar, expected) => {
    expect(coerceGlobalId(value, scalar)).toEqual(expected);
  });

  it.each([
    ['1', NOTE_ID, '"1" is not a valid Global ID'],
    ['gid://gitlab/Note', NOTE_ID, '"gid://gitlab/Note" is not a valid Global ID'],
    [12, NOTE_ID, '12 is not a valid Global ID'],
    ['gid://gitlab/Project/1', NOTE_ID, '"gid://gitlab/Project/1" does not represent an instance of Note'],
    ['gid://gitlab/Note/1', DISCUSSION_ID, '"gid://gitlab/Note/1" does not represent an instance of Discussion'],
    ['gid://gitlab/Project/1', NOTEABLE_ID, '"gid://gitlab/Project/1" does not represent an instance of Noteable'],
  ] as const)('refuses %j with GitLab\'s message', (value, scalar, message) => {
    expect(() => coerceGlobalId(value, scalar)).toThrow(new GlobalIdError(message));
  });

  it.each([
    [{ type: 'Note', id: '5' }, 5],
    [{ type: 'Note', id: '0' }, null],
    [{ type: 'Discussion', id: 'a'.repeat(40) }, null],
    [{ type: 'Note', id: '99999999999999999999' }, null],
  ] as const)('record id of %j is %j', (parsed, expected) => {
    expect(recordId(parsed)).toBe(expected);
  });
});
