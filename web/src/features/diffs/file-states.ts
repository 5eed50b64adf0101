/**
 * What a reader has done to each file of a diff: collapsed or expanded it, opened gaps,
 * asked for the full file or a renamed file's contents, and the blobs fetched for that.
 * A reducer over a map of per-file states, so only the touched file's state object changes
 * (the row cache keys on it). Pure.
 */
import type { ParsedDiff } from '../../lib/diff-hunks';
import { expandGap, NOT_EXPANDED, type ExpandDirection, type Gap, type GapExpansion } from '../../lib/hunk-expansion';
import type { ImageViewMode } from '../../lib/image-diff';

export interface FileTexts {
  old: string[] | null;
  new: string[] | null;
}

export interface FileState {
  /** Set once the reader toggles; until then the file's own startsCollapsed decides. */
  collapsed?: boolean;
  expansions: Readonly<Record<number, GapExpansion>>;
  fullFile: boolean;
  /** A renamed file's contents were asked for ("Show file contents"). */
  showContents: boolean;
  load: 'idle' | 'loading' | 'error';
  error: string | null;
  texts: FileTexts | null;
  /** A diff computed in the browser for a file the server sent without one. */
  computed: ParsedDiff | null;
  /** The blobs turned out to be binary: there is nothing to show as text. */
  binary: boolean;
  /**
   * A replaced image's chosen view. Kept here, not in the image's row, because the
   * virtual list unmounts rows that scroll away and would reset it to 2-up.
   */
  imageMode?: ImageViewMode;
}

export type FileStates = Readonly<Record<string, FileState>>;

export const INITIAL_FILE_STATE: FileState = {
  expansions: {},
  fullFile: false,
  showContents: false,
  load: 'idle',
  error: null,
  texts: null,
  computed: null,
  binary: false,
};

export type FileAction =
  | { type: 'toggle-collapsed'; id: string; startsCollapsed: boolean }
  | { type: 'set-collapsed'; id: string; collapsed: boolean }
  | { type: 'expand-gap'; id: string; gap: Gap; direction: ExpandDirection }
  | { type: 'full-file'; id: string; on: boolean }
  | { type: 'show-contents'; id: string }
  | { type: 'load-start'; id: string }
  | { type: 'load-done'; id: string; texts: FileTexts; computed?: ParsedDiff | null; binary?: boolean }
  | { type: 'load-error'; id: string; error: string }
  | { type: 'dismiss-error'; id: string }
  | { type: 'image-mode'; id: string; mode: ImageViewMode }
  | { type: 'reset' };

export function isCollapsed(state: FileState | undefined, startsCollapsed: boolean): boolean {
  return state?.collapsed ?? startsCollapsed;
}

function update(states: FileStates, id: string, change: (state: FileState) => FileState): FileStates {
  return { ...states, [id]: change(states[id] ?? INITIAL_FILE_STATE) };
}

export function fileStatesReducer(states: FileStates, action: FileAction): FileStates {
  switch (action.type) {
    case 'reset':
      return {};
    case 'toggle-collapsed':
      return update(states, action.id, (state) => ({ ...state, collapsed: !isCollapsed(state, action.startsCollapsed) }));
    case 'set-collapsed':
      return update(states, action.id, (state) => ({ ...state, collapsed: action.collapsed }));
    case 'expand-gap':
      return update(states, action.id, (state) => ({
        ...state,
        expansions: { ...state.expansions, [action.gap.index]: expandGap(action.gap, state.expansions[action.gap.index] ?? NOT_EXPANDED, action.direction) },
      }));
    case 'full-file':
      // "Show changes only" also folds the gaps opened one by one.
      return update(states, action.id, (state) => ({ ...state, fullFile: action.on, expansions: action.on ? state.expansions : {} }));
    case 'show-contents':
      return update(states, action.id, (state) => ({ ...state, showContents: true }));
    case 'load-start':
      return update(states, action.id, (state) => ({ ...state, load: 'loading', error: null }));
    case 'load-done':
      return update(states, action.id, (state) => ({
        ...state,
        load: 'idle',
        error: null,
        texts: action.texts,
        computed: action.computed ?? state.computed,
        binary: action.binary ?? state.binary,
        collapsed: action.computed !== undefined ? false : state.collapsed,
      }));
    case 'load-error':
      // A failed "Show file contents" returns the renamed viewer to its first state, with the error.
      return update(states, action.id, (state) => ({ ...state, load: 'error', error: action.error, showContents: false, fullFile: false }));
    case 'dismiss-error':
      return update(states, action.id, (state) => ({ ...state, load: 'idle', error: null }));
    case 'image-mode':
      return update(states, action.id, (state) => ({ ...state, imageMode: action.mode }));
  }
}
