import { describe, expect, it } from 'vitest';
import type { DiscussionEntity, NoteEntity } from './types';
import { isUnresolved, jumpTarget, unresolvedIds } from './unresolved';

const note = (overrides: Partial<NoteEntity> = {}): NoteEntity => ({
  id: 1,
  type: 'DiscussionNote',
  body: '',
  author: null,
  created_at: '',
  updated_at: '',
  system: false,
  resolvable: true,
  resolved: false,
  internal: false,
  lock_version: 0,
  ...overrides,
});
const thread = (id: string, notes: NoteEntity[]): DiscussionEntity => ({ id, individual_note: false, notes });

describe('isUnresolved', () => {
  it.each([
    ['an open thread', [note()], true],
    ['a resolved thread', [note({ resolved: true })], false],
    ['a thread with one open note of two', [note({ resolved: true }), note({ resolved: false })], true],
    ['a single comment (not resolvable)', [note({ type: null, resolvable: false })], false],
    ['a system note', [note({ system: true })], false],
  ])('%s → %s', (_, notes, expected) => expect(isUnresolved(thread('x', notes))).toBe(expected));

  it('lists the unresolved threads in order', () => {
    expect(unresolvedIds([thread('a', [note()]), thread('b', [note({ resolved: true })]), thread('c', [note()])])).toEqual(['a', 'c']);
  });
});

describe('jumpTarget', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];
  const open = ['b', 'd'];
  it.each([
    ['next, before any jump: the first', null, 'next', 'b'],
    ['previous, before any jump: the last', null, 'previous', 'd'],
    ['next from b', 'b', 'next', 'd'],
    ['next from the last wraps to the first', 'd', 'next', 'b'],
    ['previous from the first wraps to the last', 'b', 'previous', 'd'],
    ['next from a thread resolved since (c): the next after its place', 'c', 'next', 'd'],
    ['previous from a thread resolved since (c): the one before it', 'c', 'previous', 'b'],
    ['next from a resolved thread past the last open one: wraps', 'e', 'next', 'b'],
    ['a thread no longer listed: the first', 'zz', 'next', 'b'],
  ] as const)('%s', (_, current, direction, expected) => expect(jumpTarget(open, all, current, direction)).toBe(expected));

  it('lands nowhere when every thread is resolved', () => {
    expect(jumpTarget([], all, null, 'next')).toBeNull();
  });
});
