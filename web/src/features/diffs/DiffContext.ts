import { createContext, useContext } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import type { ExpandDirection, Gap } from '../../lib/hunk-expansion';
import type { DiffViewMode } from './diff-items';
import type { FileState } from './file-states';
import type { HighlightStore } from './highlight-store';
import type { ImageViewMode } from '../../lib/image-diff';

/** Where a diff's two sides live, and what links it can offer. */
export interface DiffRefs {
  /** The project whose repository holds both SHAs (a merge request's target project). */
  projectId: number;
  fullPath: string;
  /** The old side; null when there is none (a root commit). */
  baseSha: string | null;
  headSha: string | null;
  /** The branch an edit would commit to; null when editing does not apply (merged, an old version, no push access). */
  editRef: string | null;
  /** The merge request the diff belongs to: the single-file editor returns to it. */
  mergeRequestIid?: number;
  /** The merge request version the files are (null for a comparison of two versions): a collapsed file's patch comes from that version, otherwise from the compare of the two SHAs. */
  versionId?: number | null;
}

export interface FileActions {
  toggleCollapsed(file: DiffFile): void;
  /** 'Viewed' collapses a file, un-checking it opens it again */
  setCollapsed(file: DiffFile, collapsed: boolean): void;
  expandGap(file: DiffFile, gap: Gap, direction: ExpandDirection): void;
  setFullFile(file: DiffFile, on: boolean): void;
  showContents(file: DiffFile): void;
  expandCollapsed(file: DiffFile): void;
  dismissError(file: DiffFile): void;
  setImageMode(file: DiffFile, mode: ImageViewMode): void;
}

export interface DiffRenderContext {
  refs: DiffRefs;
  mode: DiffViewMode;
  stateOf(file: DiffFile): FileState;
  highlights: HighlightStore;
  actions: FileActions;
}

export const DiffContext = createContext<DiffRenderContext | null>(null);

export function useDiffContext(): DiffRenderContext {
  const context = useContext(DiffContext);
  if (!context) throw new Error('useDiffContext used outside DiffViewer');
  return context;
}
