import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import type { LineRow } from '../../lib/diff-rows';

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Places in the diff viewer that a page fills with its own components (a merge request's Changes
 * tab fills them with diff comments, features/diff-notes). The viewer knows nothing of what goes
 * in them; an empty slot renders nothing. Pass one object that lives as long as the page (a module
 * constant): rows are memoized and re-render only when their file or state changes, and the slot
 * components subscribe to their own data.
 */
export interface DiffSlots {
  /** In a line's gutter, before its old line number: an action on the line. */
  LineGutterAction?: ComponentType<{ file: DiffFile; row: LineRow }>;
  /** In a new line's number cell (which is `position: relative`): a mark for the line, e.g. its test coverage. */
  LineCoverage?: ComponentType<{ file: DiffFile; row: LineRow }>;
  /** Rows under a line, across the whole width (in side-by-side, under the row that holds it). */
  LineThreads?: ComponentType<{ file: DiffFile; row: LineRow }>;
  /** Under a file's header, above its lines: what belongs to the whole file. */
  FileComments?: ComponentType<{ file: DiffFile }>;
  /** In a file's header, before its links; `onCollapse` folds (true) or opens (false) the file. */
  FileHeaderControls?: ComponentType<{ file: DiffFile; onCollapse: (collapsed: boolean) => void }>;
  /** Entries of a file's options menu, after its links (ActionList items). */
  FileMenuItems?: ComponentType<{ file: DiffFile }>;
  /** Around a new image as drawn: `natural` is its own size, `drawn` the size on screen (null until known). */
  ImageOverlay?: ComponentType<{ file: DiffFile; natural: ImageSize | null; drawn: ImageSize | null; children: ReactNode }>;
  /** Under an image viewer. */
  ImageComments?: ComponentType<{ file: DiffFile }>;
}

const NO_SLOTS: DiffSlots = {};

export const DiffSlotsContext = createContext<DiffSlots>(NO_SLOTS);

export function useDiffSlots(): DiffSlots {
  return useContext(DiffSlotsContext);
}
