import { describe, expect, it } from 'vitest';
import type { AwardEmoji } from './api';
import { awardsOfNote, awardTooltip, groupAwards, MERGE_REQUEST_DEFAULT_AWARDS } from './award-groups';

const user = (id: number, name = `User ${id}`) => ({ id, name, username: `user${id}`, state: 'active', avatar_url: null, web_url: '' });
let nextId = 1;
const award = (name: string, userId: number, userName?: string): AwardEmoji => ({
  id: nextId++,
  name,
  user: user(userId, userName),
  created_at: '',
  updated_at: '',
  awardable_id: 1,
  awardable_type: 'Note',
});
const awardsBy = (count: number, name = 'tada') => Array.from({ length: count }, (_, i) => award(name, i + 1));

describe('awardTooltip (GitLab getAwardListTitle)', () => {
  it.each([
    ['one person', [award('tada', 1, 'Ada')], null, 'Ada reacted with :tada:'],
    ['two people', [award('tada', 1, 'Ada'), award('tada', 2, 'Bob')], null, 'Ada and Bob reacted with :tada:'],
    ['three people, with the serial comma', [award('tada', 1, 'Ada'), award('tada', 2, 'Bob'), award('tada', 3, 'Cy')], null, 'Ada, Bob, and Cy reacted with :tada:'],
    ['only you', [award('tada', 7, 'Me')], 7, 'You reacted with :tada:'],
    ['you are named first, as You', [award('tada', 1, 'Ada'), award('tada', 7, 'Me')], 7, 'You and Ada reacted with :tada:'],
  ])('%s', (_label, awards, currentUserId, expected) => {
    expect(awardTooltip(awards, 'tada', currentUserId)).toBe(expected);
  });

  it('names at most 10 people, then "and N more"', () => {
    expect(awardTooltip(awardsBy(10), 'tada', null)).toBe('User 1, User 2, User 3, User 4, User 5, User 6, User 7, User 8, User 9, and User 10 reacted with :tada:');
    expect(awardTooltip(awardsBy(13), 'tada', null)).toBe('User 1, User 2, User 3, User 4, User 5, User 6, User 7, User 8, User 9, User 10, and 3 more reacted with :tada:');
  });

  it('moves the current user into the first 10 when they reacted late', () => {
    const text = awardTooltip(awardsBy(15), 'tada', 15);
    expect(text).toBe('You, User 1, User 2, User 3, User 4, User 5, User 6, User 7, User 8, User 9, and 5 more reacted with :tada:');
  });

  it('is empty without awards', () => {
    expect(awardTooltip([], 'thumbsup', 1)).toBe('');
  });
});

describe('groupAwards', () => {
  it('puts thumbs up and down first, then the others in the order first awarded, with counts and your own award', () => {
    const awards = [award('tada', 1), award('thumbsdown', 2), award('eyes', 3), award('tada', 4), award('thumbsup', 4)];
    const groups = groupAwards(awards, 4);
    expect(groups.map((group) => [group.name, group.awards.length, group.mine?.id ?? null])).toEqual([
      ['thumbsup', 1, awards[4]!.id],
      ['thumbsdown', 1, null],
      ['tada', 2, awards[3]!.id],
      ['eyes', 1, null],
    ]);
  });

  it('always offers thumbs up and down on the merge request, at 0 and without a tooltip', () => {
    const groups = groupAwards([award('rocket', 1)], null, MERGE_REQUEST_DEFAULT_AWARDS);
    expect(groups.map((group) => [group.name, group.awards.length, group.tooltip])).toEqual([
      ['thumbsup', 0, ''],
      ['thumbsdown', 0, ''],
      ['rocket', 1, 'User 1 reacted with :rocket:'],
    ]);
  });

  it('knows no own award for a signed-out visitor', () => {
    expect(groupAwards([award('tada', 1)], null)[0]!.mine).toBeNull();
  });
});

describe('awardsOfNote', () => {
  it('picks one note’s awards out of the merge request’s notes list, grouping the list once', () => {
    const onNote = (noteId: number, name: string): AwardEmoji => ({ ...award(name, 1), awardable_id: noteId });
    const all = [onNote(10, 'tada'), onNote(11, 'eyes'), onNote(10, 'rocket')];
    expect(awardsOfNote(all, 10).map((a) => a.name)).toEqual(['tada', 'rocket']);
    expect(awardsOfNote(all, 12)).toEqual([]);
    // the same list gives the same arrays: React Query's select sees nothing changed
    expect(awardsOfNote(all, 10)).toBe(awardsOfNote(all, 10));
  });
});
