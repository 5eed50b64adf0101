import { describe, expect, it } from 'vitest';
import { noteAbilities, projectAbilities, type NoteAction, type NoteSubject, type ProjectAction } from '../../auth/permissions.js';
import { mayCommentOn, NO_NOTE_PERMISSIONS, notePermissions } from './note-permissions.js';

describe('notePermissions', () => {
  it.each<[string, NoteAction[], Partial<ReturnType<typeof notePermissions>>]>([
    ['nothing granted: nothing allowed', [], {}],
    ['a reader only reads', ['read_note'], { readNote: true }],
    ['a commenter replies and reacts', ['read_note', 'reply_to_note', 'award_emoji'], { readNote: true, createNote: true, awardEmoji: true }],
    ['the author edits, deletes and repositions', ['read_note', 'update_note', 'delete_note'], { readNote: true, adminNote: true, repositionNote: true }],
    ['a Maintainer deletes another one\'s note', ['read_note', 'delete_note'], { readNote: true, adminNote: true, repositionNote: true }],
    ['a resolver resolves', ['read_note', 'resolve_note'], { readNote: true, resolveNote: true }],
  ])('%s', (_name, granted, expected) => {
    expect(notePermissions(new Set(granted))).toEqual({ ...NO_NOTE_PERMISSIONS, ...expected });
  });

  // The same rule as the REST API's: a Developer on another's thread note may resolve and reply, not edit.
  it('follows noteAbilities for a Developer on another user\'s thread note', () => {
    const project = projectAbilities({ userId: 2, isAdmin: false, accessLevel: 30, visibility: 'private' }) as ReadonlySet<ProjectAction>;
    const subject: NoteSubject = { userId: 2, noteAuthorId: 1, mergeRequestAuthorId: 1, discussionLocked: false, system: false, internal: false, resolvable: true };
    expect(notePermissions(noteAbilities(project, subject))).toEqual({ adminNote: false, awardEmoji: true, createNote: true, readNote: true, repositionNote: false, resolveNote: true });
  });
});

describe('mayCommentOn', () => {
  const abilities = (accessLevel: number, visibility: 'private' | 'public' = 'private') =>
    projectAbilities({ userId: 2, isAdmin: false, accessLevel, visibility }) as ReadonlySet<ProjectAction>;
  it.each([
    ['a Reporter comments on an open discussion', 20, false, true],
    ['a stranger of a private project does not', 0, false, false],
    ['a Reporter comments on a locked discussion (members may)', 20, true, true],
  ] as const)('%s', (_name, level, locked, expected) => {
    expect(mayCommentOn(abilities(level), locked)).toBe(expected);
  });
  it('a signed-in non-member of a public project may not comment on a locked discussion', () => {
    expect(mayCommentOn(abilities(0, 'public'), true)).toBe(false);
  });
});
