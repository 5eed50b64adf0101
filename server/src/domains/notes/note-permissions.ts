/**
 * GitLab's NotePermissions (the `userPermissions` of a note in GraphQL): what the caller may
 * do with one note, in GitLab's names, derived from the one per-note rule (noteAbilities in
 * auth/permissions.ts). Every surface that shows a note's buttons (GraphQL, the web app) reads
 * these, so a button is offered exactly when the call behind it is allowed. Pure.
 */
import { canCreateNote, type NoteAction, type ProjectAction } from '../../auth/permissions.js';

export interface NotePermissions {
  /** edit or delete the note (GitLab's admin_note: its author, or a Maintainer for deletion) */
  adminNote: boolean;
  awardEmoji: boolean;
  /** reply in the note's thread */
  createNote: boolean;
  readNote: boolean;
  /** move an image note's pin (GitLab grants it with admin_note) */
  repositionNote: boolean;
  resolveNote: boolean;
}

export const NO_NOTE_PERMISSIONS: NotePermissions = { adminNote: false, awardEmoji: false, createNote: false, readNote: false, repositionNote: false, resolveNote: false };

/** The note's permissions from what noteAbilities granted on it. */
export function notePermissions(granted: ReadonlySet<NoteAction>): NotePermissions {
  const admin = granted.has('update_note') || granted.has('delete_note');
  return {
    adminNote: admin,
    awardEmoji: granted.has('award_emoji'),
    createNote: granted.has('reply_to_note'),
    readNote: granted.has('read_note'),
    repositionNote: admin,
    resolveNote: granted.has('resolve_note'),
  };
}

/**
 * May the caller start a comment on the merge request (GitLab's MergeRequestPermissions
 * `createNote`): the same rule that admits a new note, for a non-internal one.
 */
export function mayCommentOn(project: ReadonlySet<ProjectAction>, discussionLocked: boolean): boolean {
  return canCreateNote(project, { discussionLocked, internal: false });
}
