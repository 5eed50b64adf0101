import type { DiffFile } from '../../lib/diff-file';
import { displayPath } from '../../lib/diff-file';
import { loadHighlighter as loadHighlighterModule } from '../repository';
import { highlightJob, type FileHighlight, type Highlighter, type HighlightJob } from './diff-highlight';
import type { FileState } from './file-states';

/** Highlighting waits for idle time, but no longer than this. */
const HIGHLIGHT_IDLE_TIMEOUT_MS = 200;
/** Steps continue in one idle period while it has at least this much time left. */
const MIN_IDLE_MS = 4;

/** Runs `callback` when the page is idle; the callback learns how long it may work. */
export type Idle = (callback: (timeRemaining: () => number) => void) => void;

const whenIdle: Idle =
  typeof window !== 'undefined' && 'requestIdleCallback' in window
    ? (callback) => window.requestIdleCallback((deadline) => callback(() => deadline.timeRemaining()), { timeout: HIGHLIGHT_IDLE_TIMEOUT_MS })
    : (callback) => window.setTimeout(() => callback(() => 0), 0);

/** highlight.js is a large module: fetched when the first file is to be highlighted, not before the diff shows. */
const loadHighlighter = (): Promise<Highlighter> => loadHighlighterModule().then((module) => module.highlightLines);

interface Source {
  texts: FileState['texts'];
  computed: FileState['computed'];
}

interface Wanted extends Source {
  job: HighlightJob | null;
  /** Mounted rows that show the file. */
  count: number;
}

const sameSource = (a: Source, b: Source) => a.texts === b.texts && a.computed === b.computed;

/**
 * Syntax highlighting computed off the scroll path. Rows first show escaped text; a file
 * whose rows are on screen is highlighted in idle time, a step of lines per task (see
 * HIGHLIGHT_STEP_LINES), then its rows re-render. Files that scroll away before their
 * turn are dropped from the queue. Results are kept per file object and redone when the
 * texts or the computed diff they were made from change.
 */
export function createHighlightStore(idle: Idle = whenIdle, load: () => Promise<Highlighter> = loadHighlighter) {
  const results = new WeakMap<DiffFile, Source & { highlight: FileHighlight }>();
  const wanted = new Map<DiffFile, Wanted>();
  const listeners = new Set<() => void>();
  let highlighter: Highlighter | null = null;
  let loading = false;
  let scheduled = false;

  const isFresh = (file: DiffFile, source: Source) => {
    const result = results.get(file);
    return result !== undefined && sameSource(result, source);
  };

  const next = () => {
    for (const [file, entry] of wanted) if (!isFresh(file, entry)) return [file, entry] as const;
    return null;
  };

  /** One step of the first file still to do; returns whether work remains. */
  function step(run: Highlighter): boolean {
    const found = next();
    if (!found) return false;
    const [file, entry] = found;
    entry.job ??= highlightJob(displayPath(file), entry.computed ?? file.parsed, { old: entry.texts?.old ?? null, new: entry.texts?.new ?? null });
    const done = entry.job.step(run);
    if (done) {
      entry.job = null;
      results.set(file, { texts: entry.texts, computed: entry.computed, highlight: done });
      for (const listener of listeners) listener();
    }
    return next() !== null;
  }

  function schedule() {
    if (scheduled) return;
    if (!highlighter) {
      if (!loading) {
        loading = true;
        void load().then((loaded) => {
          highlighter = loaded;
          schedule();
        });
      }
      return;
    }
    scheduled = true;
    idle((timeRemaining) => {
      scheduled = false;
      const run = highlighter!;
      // At least one step per callback (a timed-out callback has no time left), more while the page stays idle.
      let more = step(run);
      while (more && timeRemaining() >= MIN_IDLE_MS) more = step(run);
      if (more) schedule();
    });
  }

  return {
    /** The file's highlighting for this state; a stale one (before an expansion) while the new one waits; else null. Pure. */
    peek(file: DiffFile): FileHighlight | null {
      const result = results.get(file);
      return result ? result.highlight : null;
    },
    /** Rows of the file are on screen: highlight it (again, when its state changed). Returns the release. */
    request(file: DiffFile, state: FileState): () => void {
      let entry = wanted.get(file);
      if (!entry) {
        entry = { texts: state.texts, computed: state.computed, job: null, count: 0 };
        wanted.set(file, entry);
      } else if (!sameSource(entry, state)) {
        Object.assign(entry, { texts: state.texts, computed: state.computed, job: null });
      }
      entry.count++;
      if (!isFresh(file, entry)) schedule();
      const held = entry;
      return () => {
        held.count--;
        if (held.count === 0 && wanted.get(file) === held) wanted.delete(file);
      };
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type HighlightStore = ReturnType<typeof createHighlightStore>;
