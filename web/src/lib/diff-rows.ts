/**
 * The rows of one text diff as the viewer draws them: the hunks' lines, the context lines
 * revealed by expanding gaps, and between them the expander rows (GitLab's `@@` line with
 * expand buttons) for what is still hidden. Side by side pairs these same rows
 * (side-by-side.ts). Pure.
 */
import type { ChangeLine, Hunk, NoteLine, ParsedDiff } from './diff-hunks';
import { gapDirections, gapsOf, gapView, NOT_EXPANDED, type ExpandDirection, type Gap, type GapExpansion } from './hunk-expansion';

export type LineRow = ChangeLine & { /** revealed by expanding, not part of the patch */ expanded?: boolean };

export interface ExpanderRow {
  type: 'expander';
  gapIndex: number;
  /** The `@@` header of the hunk below; null for the gap after the last hunk. */
  header: string | null;
  /** Lines still hidden; null while the file's length is unknown. */
  hidden: number | null;
  directions: ExpandDirection[];
}

/** A hunk header with nothing hidden above it (the first hunk starting at line 1). */
export interface HunkRow {
  type: 'hunk';
  header: string;
}

export type DiffRow = LineRow | NoteLine | ExpanderRow | HunkRow;

export interface DiffRowsInput {
  parsed: ParsedDiff;
  /** The new file's lines, once fetched for expanding; null before. */
  newLines: string[] | null;
  /** Known without fetching: a new file's length, 0 for a deleted file. */
  knownLineCount: number | null;
  expansions: Readonly<Record<number, GapExpansion>>;
}

/**
 * A file's new-side length when the patch itself tells: new files (one hunk of everything),
 * deleted files (0), and files whose last hunk ends with "No newline at end of file" after a
 * new-side line.
 */
export function lineCountFromPatch(parsed: ParsedDiff, file: { newFile: boolean; deletedFile: boolean }): number | null {
  if (file.deletedFile) return 0;
  const last: Hunk | undefined = parsed.hunks[parsed.hunks.length - 1];
  if (!last) return null;
  const end = last.newStart + last.newCount - 1;
  if (file.newFile) return end;
  const lines = last.lines;
  const tail = lines[lines.length - 1];
  const beforeTail = lines[lines.length - 2];
  if (tail?.type === 'note' && beforeTail && beforeTail.type !== 'note' && beforeTail.type !== 'delete') return end;
  return null;
}

function contextRows(gap: Gap, range: [number, number] | null, newLines: string[]): LineRow[] {
  if (!range) return [];
  const rows: LineRow[] = [];
  for (let line = range[0]; line <= range[1]; line++) {
    rows.push({ type: 'context', text: newLines[line - 1] ?? '', oldLine: line + gap.oldOffset, newLine: line, expanded: true });
  }
  return rows;
}

export function buildDiffRows({ parsed, newLines, knownLineCount, expansions }: DiffRowsInput): DiffRow[] {
  const { hunks } = parsed;
  if (hunks.length === 0) return [];
  const gaps = gapsOf(hunks, newLines ? newLines.length : knownLineCount);
  const rows: DiffRow[] = [];
  for (const gap of gaps) {
    const hunk = hunks[gap.index];
    const view = newLines ? gapView(gap, expansions[gap.index] ?? NOT_EXPANDED) : gapView(gap, NOT_EXPANDED);
    const directions = gapDirections(gap, gaps.length);
    if (newLines) rows.push(...contextRows(gap, view.top, newLines));
    if (view.hidden === null || view.hidden > 0) {
      rows.push({ type: 'expander', gapIndex: gap.index, header: hunk?.header ?? null, hidden: view.hidden, directions });
    } else if (hunk && gap.newEnd !== null && gap.newEnd < gap.newStart) {
      // Nothing was ever hidden above this hunk: show its header plainly.
      rows.push({ type: 'hunk', header: hunk.header });
    }
    if (newLines) rows.push(...contextRows(gap, view.bottom, newLines));
    if (hunk) rows.push(...hunk.lines);
  }
  return rows;
}

/** Every line of a file as unchanged context, for a renamed file's "Show file contents". */
export function wholeFileRows(lines: readonly string[]): LineRow[] {
  return lines.map((text, index) => ({ type: 'context', text, oldLine: index + 1, newLine: index + 1 }));
}

/** A line's `data-point` attribute in the diff (`add::5`), read back where a drag ends. */
export function pointAttribute(row: Pick<LineRow, 'type' | 'oldLine' | 'newLine'>): string {
  return `${row.type}:${row.oldLine ?? ''}:${row.newLine ?? ''}`;
}

export function parsePointAttribute(value: string | undefined | null): Pick<LineRow, 'type' | 'oldLine' | 'newLine'> | null {
  const match = value ? /^(add|delete|context):(\d*):(\d*)$/.exec(value) : null;
  if (!match) return null;
  const number = (text: string) => (text === '' ? null : Number(text));
  return { type: match[1] as LineRow['type'], oldLine: number(match[2]!), newLine: number(match[3]!) };
}
