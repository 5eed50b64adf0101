import type { DiffSlots } from '../diffs';
import { FileHeaderControls, FileNotes, ToggleCommentsItem } from './FileComments';
import { ImageCommentLayer, ImageNotes } from './ImageComments';
import { LineCommentButton, LineNotes } from './LineComments';

/**
 * Diff comments in the diff viewer's slots: the merge request's Changes tab passes this to
 * DiffViewer inside a DiffNotesProvider. Each component reads the provider itself and renders
 * nothing without one. One object for the app's life, so the viewer's memoized rows keep it.
 */
export const diffNoteSlots: DiffSlots = {
  LineGutterAction: LineCommentButton,
  LineThreads: LineNotes,
  FileComments: FileNotes,
  FileHeaderControls,
  FileMenuItems: ToggleCommentsItem,
  ImageOverlay: ImageCommentLayer,
  ImageComments: ImageNotes,
};
