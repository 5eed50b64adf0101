import { createContext, useContext } from 'react';
import type { UserBasic } from '../../lib/gitlab-types';
import type { DraftNote } from '../review';
import type { NoteTarget } from './api';
import type { AuthorRole } from './types';

export type { AuthorRole } from './types';

/** What every note and thread of one Activity section shares. */
export interface NotesContextValue {
  target: NoteTarget;
  projectPath: string;
  noteableType: 'MergeRequest';
  noteableAuthorId: number | null;
  /** null: signed out */
  user: UserBasic | null;
  /** may write notes (signed in, and a member when the discussion is locked) */
  canReply: boolean;
  editingNoteId: number | null;
  setEditingNoteId: (id: number | null) => void;
  /** the note a `#note_` hash names */
  targetNoteId: number | null;
  /** the caller's draft notes (a review in progress when any); empty when signed out */
  drafts: DraftNote[];
  /** the caller's role badges' source: user id → access level and contributor flag */
  roles: ReadonlyMap<number, AuthorRole>;
}

export const NotesContext = createContext<NotesContextValue | null>(null);

export function useNotesContext(): NotesContextValue {
  const value = useContext(NotesContext);
  if (!value) throw new Error('useNotesContext outside the Activity section');
  return value;
}
