import type { DiffFile } from '../../lib/diff-file';
import { displayPath } from '../../lib/diff-file';
import { highlightFile, type FileHighlight } from './diff-highlight';
import type { FileState } from './file-states';

/** Highlighting waits for idle time, but no longer than this. */
const HIGHLIGHT_IDLE_TIMEOUT_MS = 200;

type Idle = (callback: () => void) => void;

const whenIdle: Idle =
  typeof window !== 'undefined' && 'requestIdleCallback' in window
    ? (callback) => window.requestIdleCallback(callback, { timeout: HIGHLIGHT_IDLE_TIMEOUT_MS })
    : (callback) => window.setTimeout(callback, 0);

/**
 * Syntax highlighting computed off the scroll path: rows first show escaped text, a file is
 * highlighted in the next idle period, then its rows re-render. One file per idle callback,
 * so no single task highlights many files. Results are kept per file object and invalidated
 * when the texts or the computed diff they were made from change.
 */
export function createHighlightStore(idle: Idle = whenIdle) {
  const results = new WeakMap<DiffFile, { texts: FileState['texts']; computed: FileState['computed']; highlight: FileHighlight }>();
  const queue = new Map<DiffFile, FileState>();
  const listeners = new Set<() => void>();
  let scheduled = false;

  function run() {
    scheduled = false;
    const next = queue.entries().next();
    if (next.done) return;
    const [file, state] = next.value;
    queue.delete(file);
    const highlight = highlightFile(displayPath(file), state.computed ?? file.parsed, { old: state.texts?.old ?? null, new: state.texts?.new ?? null });
    results.set(file, { texts: state.texts, computed: state.computed, highlight });
    for (const listener of listeners) listener();
    schedule();
  }

  function schedule() {
    if (scheduled || queue.size === 0) return;
    scheduled = true;
    idle(run);
  }

  return {
    /** The file's highlighting if ready for this state; otherwise null, and it is queued. */
    get(file: DiffFile, state: FileState): FileHighlight | null {
      const result = results.get(file);
      if (result && result.texts === state.texts && result.computed === state.computed) return result.highlight;
      queue.set(file, state);
      schedule();
      // Stale highlighting (from before an expansion) is better than none while the new one waits.
      return result?.highlight ?? null;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type HighlightStore = ReturnType<typeof createHighlightStore>;
