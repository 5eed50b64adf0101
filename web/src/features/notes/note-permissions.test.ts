import { describe, expect, it } from 'vitest';
import { canResolveThread, noteActions } from './note-permissions';
import type { NoteEntity } from './types';

const granted = (overrides: Partial<NonNullable<NoteEntity['current_user']>> = {}) => ({ can_edit: false, can_delete: false, can_award_emoji: false, can_resolve_discussion: false, ...overrides });

describe('noteActions', () => {
  it.each([
    ['the author', granted({ can_edit: true, can_delete: true, can_award_emoji: true }), { edit: true, delete: true, award: true }],
    ['a Developer on another’s note', granted({ can_award_emoji: true }), { edit: false, delete: false, award: true }],
    ['a Maintainer on another’s note', granted({ can_delete: true, can_award_emoji: true }), { edit: false, delete: true, award: true }],
    ['a note without permissions', undefined, { edit: false, delete: false, award: false }],
  ])('%s', (_who, current_user, expected) => {
    expect(noteActions({ current_user })).toEqual(expected);
  });
});

describe('canResolveThread', () => {
  const note = (resolvable: boolean, can: boolean) => ({ resolvable, current_user: granted({ can_resolve_discussion: can }) }) as NoteEntity;
  it.each([
    [[note(true, true), note(true, true)], true],
    [[note(true, true), note(true, false)], false],
    [[note(false, false), note(true, true)], true],
    [[note(false, false)], false],
    [[{ resolvable: true } as NoteEntity], false],
  ])('%#', (notes, expected) => {
    expect(canResolveThread({ notes })).toBe(expected);
  });
});
