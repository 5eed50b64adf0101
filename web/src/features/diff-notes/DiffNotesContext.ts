import { createContext, useContext } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import type { DiffRow, LineRow } from '../../lib/diff-rows';
import type { NoteTarget, DiscussionEntity } from '../notes';
import type { DraftNote } from './api';
import type { DiffPosition, PositionRefs } from './position';
import type { Placed } from './threads';
import type { ReviewedFile } from './reviews';

/** An open comment form: where it shows (a line, the file, the image) and what it would post. */
export interface OpenForm {
  path: string;
  /** a lineKey, 'file' or 'image' */
  anchor: string;
  position: DiffPosition;
}

/** What the diff viewer's rows and headers need to show and write diff comments. */
export interface DiffNotesValue {
  target: NoteTarget;
  /** null: comments cannot be written on what is shown (an older version, signed out) */
  refs: PositionRefs | null;
  files: readonly DiffFile[];
  threadsOf(path: string): Placed<DiscussionEntity> | undefined;
  draftsOf(path: string): Placed<DraftNote> | undefined;
  /** the user has drafts: the form offers 'Add to review' */
  hasDrafts: boolean;
  form: OpenForm | null;
  openForm(form: OpenForm): void;
  closeForm(): void;
  commentsHidden(path: string): boolean;
  /** Hides (true) or shows (false) a file's threads and drafts: set to what the menu entry said, never flipped. */
  setCommentsHidden(path: string, hidden: boolean): void;
  /** marked 'Viewed' with the change it has now */
  isReviewed(file: ReviewedFile): boolean;
  setReviewed(file: ReviewedFile, reviewed: boolean): void;
  /** a press on a line's comment button: the form opens where the pointer is let go */
  startDrag(drag: DragStart): void;
}

/** Where a line comment drag began. */
export interface DragStart {
  path: string;
  file: DiffFile;
  element: Element;
  row: LineRow;
  /** the file's rows as shown, for line codes */
  rows: () => readonly DiffRow[];
}

export const DiffNotesContext = createContext<DiffNotesValue | null>(null);

/** null outside a merge request's Changes tab (commits, compare): no comments there. */
export function useDiffNotes(): DiffNotesValue | null {
  return useContext(DiffNotesContext);
}

/** Set inside the diff, where a thread's excerpt is the diff itself. */
export const InDiffContext = createContext(false);
