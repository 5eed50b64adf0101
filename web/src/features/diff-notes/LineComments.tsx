import { t } from '@tributary/contracts';
import { type DiffFile, displayPath } from '../../lib/diff-file';
import type { LineRow } from '../../lib/diff-rows';
import { useDiffContext, textRows } from '../diffs';
import type { DiscussionEntity } from '../notes';
import type { DraftNote } from './api';
import { useDiffNotes } from './DiffNotesContext';
import { NotesBlock } from './NotesBlock';
import { lineKey, linePoint, pointFromRows, textPosition } from './position';
import { lineRefusal } from './refusals';
import styles from './DiffNotes.module.css';

const NO_THREADS: readonly DiscussionEntity[] = [];
const NO_DRAFTS: readonly DraftNote[] = [];

/** A file's refusal depends on the other files (a type change is two entries): computed once per file list. */
const refusals = new WeakMap<readonly DiffFile[], Map<DiffFile, string | null>>();
function fileRefusal(file: DiffFile, files: readonly DiffFile[], options: { computed: boolean; wholeFileOfRename: boolean }): string | null {
  if (options.computed || options.wholeFileOfRename) return lineRefusal(file, files, options);
  let cache = refusals.get(files);
  if (!cache) {
    cache = new Map();
    refusals.set(files, cache);
  }
  if (!cache.has(file)) cache.set(file, lineRefusal(file, files));
  return cache.get(file) ?? null;
}

/**
 * The '+' on a diff line: press it and let go on the same line for one line,
 * or on another line of the file for a range. A line that cannot take a comment keeps a
 * disabled button whose tooltip says why. A plain button; its tooltip is the diff's one
 * LineTooltip, drawn above the line: thousands of rows mount while the list scrolls.
 */
export function LineCommentButton({ file, row }: { file: DiffFile; row: LineRow }) {
  const notes = useDiffNotes();
  const { stateOf } = useDiffContext();
  if (!notes?.refs) return null;
  const refs = notes.refs;
  const state = stateOf(file);
  const refusal = fileRefusal(file, notes.files, { computed: state.computed !== null, wholeFileOfRename: state.showContents });
  const label = t(refusal ?? 'Add a comment to this line or drag for multiple lines');
  const path = displayPath(file);
  const rows = () => textRows(file, stateOf(file));
  return (
    <button
      type="button"
      className={styles.lineButton}
      aria-label={label}
      // the text of the diff's one LineTooltip (LINE_TOOLTIP_ATTRIBUTE)
      data-line-tooltip={label}
      aria-disabled={refusal ? true : undefined}
      onPointerDown={(event) => {
        if (refusal || event.button !== 0) return;
        // no text selection or focus move while dragging over lines
        event.preventDefault();
        const element = event.currentTarget.closest('[data-point]') ?? event.currentTarget;
        notes.startDrag({ path, file, element, row, rows });
      }}
      onClick={(event) => {
        // a pointer's click is handled on release (it may have been a drag); this is Enter or Space
        if (refusal || event.detail !== 0) return;
        const position = textPosition(refs, file, pointFromRows(path, rows(), row));
        notes.openForm({ path, anchor: lineKey(position), position });
      }}
    >
      +
    </button>
  );
}

/** The threads, drafts and form under one line. */
export function LineNotes({ file, row }: { file: DiffFile; row: LineRow }) {
  const notes = useDiffNotes();
  if (!notes) return null;
  const path = displayPath(file);
  const key = lineKey(linePoint(row));
  const threads = notes.threadsOf(path)?.lines.get(key) ?? NO_THREADS;
  const drafts = notes.draftsOf(path)?.lines.get(key) ?? NO_DRAFTS;
  if (threads.length === 0 && drafts.length === 0 && !(notes.form?.path === path && notes.form.anchor === key)) return null;
  return <NotesBlock path={path} anchor={key} threads={threads} drafts={drafts} />;
}
