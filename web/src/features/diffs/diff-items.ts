/**
 * The diff as one flat list for the virtualiser: per file a header, then its rows (inline
 * lines, or side-by-side pairs), or one body for viewers that are not text, then an end
 * piece that closes the file's box. Rows of a file are cached on its state object, so
 * expanding one file rebuilds one file. Pure.
 */
import type { DiffFile } from '../../lib/diff-file';
import { buildDiffRows, lineCountFromPatch, wholeFileRows, type DiffRow } from '../../lib/diff-rows';
import { expandAll, gapsOf } from '../../lib/hunk-expansion';
import { pairRows, type SideBySideRow } from '../../lib/side-by-side';
import { INITIAL_FILE_STATE, isCollapsed, type FileState, type FileStates } from './file-states';

export type DiffViewMode = 'inline' | 'parallel';

/**
 * Rows per virtual item. One item per row would make the virtualiser track (and, as rows
 * are measured, re-sum) tens of thousands of sizes; blocks of rows keep that to a few
 * thousand while each block stays cheap to render.
 */
export const ROWS_PER_BLOCK = 32;

export type DiffItem =
  | { kind: 'header'; key: string; file: DiffFile }
  | { kind: 'lines'; key: string; file: DiffFile; rows: DiffRow[] }
  | { kind: 'pairs'; key: string; file: DiffFile; rows: SideBySideRow<DiffRow>[] }
  /** A viewer that is not rows of text, or the notice of a collapsed file. */
  | { kind: 'body'; key: string; file: DiffFile; body: 'viewer' | 'collapsed' }
  | { kind: 'end'; key: string; file: DiffFile };

/** Does the file show rows of text (now, with what was loaded)? */
export function showsText(file: DiffFile, state: FileState): boolean {
  if (state.binary) return false;
  if (state.showContents && state.texts?.new) return true;
  if (state.computed) return true;
  return file.viewer === 'text';
}

export function textRows(file: DiffFile, state: FileState): DiffRow[] {
  if (state.showContents && state.texts?.new) return wholeFileRows(state.texts.new);
  const parsed = state.computed ?? file.parsed;
  const newLines = state.texts?.new ?? null;
  const expansions = state.fullFile && newLines ? expandAll(gapsOf(parsed.hunks, newLines.length)) : state.expansions;
  return buildDiffRows({ parsed, newLines, knownLineCount: lineCountFromPatch(parsed, file), expansions });
}

function blocks<T>(rows: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_BLOCK) result.push(rows.slice(start, start + ROWS_PER_BLOCK));
  return result;
}

function fileItems(file: DiffFile, state: FileState, mode: DiffViewMode): DiffItem[] {
  const items: DiffItem[] = [{ kind: 'header', key: `${file.id}:header`, file }];
  if (isCollapsed(state, file.startsCollapsed)) {
    // A file that starts collapsed says why; one the reader folded shows only its header.
    if (state.collapsed === undefined) items.push({ kind: 'body', key: `${file.id}:collapsed`, file, body: 'collapsed' });
  } else if (showsText(file, state)) {
    const rows = textRows(file, state);
    if (mode === 'inline') {
      blocks(rows).forEach((block, index) => items.push({ kind: 'lines', key: `${file.id}:lines${index}`, file, rows: block }));
    } else {
      blocks(pairRows(rows)).forEach((block, index) => items.push({ kind: 'pairs', key: `${file.id}:pairs${index}`, file, rows: block }));
    }
    // A computed or loaded diff that is empty still needs a body ("No changes").
    if (rows.length === 0) items.push({ kind: 'body', key: `${file.id}:viewer`, file, body: 'viewer' });
  } else {
    items.push({ kind: 'body', key: `${file.id}:viewer`, file, body: 'viewer' });
  }
  items.push({ kind: 'end', key: `${file.id}:end`, file });
  return items;
}

export interface ItemCache {
  get(file: DiffFile): { state: FileState; mode: DiffViewMode; items: DiffItem[] } | undefined;
  set(file: DiffFile, value: { state: FileState; mode: DiffViewMode; items: DiffItem[] }): void;
}

export function buildDiffItems(files: readonly DiffFile[], states: FileStates, mode: DiffViewMode, cache?: ItemCache): { items: DiffItem[]; headerIndex: Map<string, number> } {
  const items: DiffItem[] = [];
  const headerIndex = new Map<string, number>();
  for (const file of files) {
    const state = states[file.id] ?? INITIAL_FILE_STATE;
    const cached = cache?.get(file);
    let own = cached && cached.state === state && cached.mode === mode ? cached.items : null;
    if (!own) {
      own = fileItems(file, state, mode);
      cache?.set(file, { state, mode, items: own });
    }
    headerIndex.set(file.id, items.length);
    for (const item of own) items.push(item);
  }
  return { items, headerIndex };
}
