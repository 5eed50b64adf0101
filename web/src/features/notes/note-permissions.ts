import type { DiscussionEntity, NoteEntity } from './types';

/** What the reader may do to one note, as the page offers it. */
export interface NoteActions {
  edit: boolean;
  delete: boolean;
  award: boolean;
}

/**
 * The actions a note offers are exactly what the server says the reader may do to it (the
 * note's `current_user`, computed by the server's one note rule); a note without it (an older
 * server, or a placeholder) offers none, so the page never offers what the server refuses.
 */
export function noteActions(note: Pick<NoteEntity, 'current_user'>): NoteActions {
  const granted = note.current_user;
  return { edit: granted?.can_edit === true, delete: granted?.can_delete === true, award: granted?.can_award_emoji === true };
}

/**
 * 'Resolve thread' shows only when every resolvable note of the thread lets the reader resolve
 * it (GitLab's notes app), and the thread has one.
 */
export function canResolveThread(discussion: Pick<DiscussionEntity, 'notes'>): boolean {
  const resolvable = discussion.notes.filter((note) => note.resolvable);
  return resolvable.length > 0 && resolvable.every((note) => note.current_user?.can_resolve_discussion === true);
}
