/**
 * Diff positions the Changes tab sends with a diff comment (GitLab's Gitlab::Diff::Position,
 * doc/api/discussions.md "Create a new thread in the merge request diff"): a line, a range of
 * lines dragged over, the whole file, or a rectangle on an image. Pure.
 *
 * A text line follows GitLab's rule: an added line has only new_line, a removed one only
 * old_line, an unchanged one both. A range's main line is its last line (GitLab anchors the
 * thread there), and line codes are `<sha1(path)>_<old position>_<new position>`.
 */
import { lineCodeFromHash, type DiffRefs, type LinePoint, type LineRange } from '@tributary/contracts/diff-position';
import { parseHunkHeader } from '../../lib/diff-hunks';
import type { DiffRow, LineRow } from '../../lib/diff-rows';
import { sha1Hex } from './sha1';

// A line row's data-point attribute is the diff viewer's; drags read it back.
export { parsePointAttribute, pointAttribute } from '../../lib/diff-rows';

// The types and rules the server parses and checks positions by are shared with it.
export { positionFilePath as positionPath } from '@tributary/contracts/diff-position';
export type PositionRefs = DiffRefs;

interface PositionBase extends PositionRefs {
  old_path: string;
  new_path: string;
}

export interface TextPosition extends PositionBase {
  position_type: 'text';
  old_line: number | null;
  new_line: number | null;
  line_range: LineRange | null;
}

export interface FilePosition extends PositionBase {
  position_type: 'file';
}

export interface ImagePosition extends PositionBase {
  position_type: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
}

export type DiffPosition = TextPosition | FilePosition | ImagePosition;

export interface PositionFile {
  oldPath: string;
  newPath: string;
  deletedFile: boolean;
}

/** GitLab's Gitlab::Git.diff_line_code. */
export function lineCode(path: string, oldPosition: number, newPosition: number): string {
  return lineCodeFromHash(sha1Hex(path), oldPosition, newPosition);
}

const isLine = (row: DiffRow): row is LineRow => row.type === 'context' || row.type === 'add' || row.type === 'delete';

/**
 * Every line row's line code, as GitLab's diff parser counts: an added line carries the old
 * side's next line number, a removed line the new side's (GitLab's `line_old`/`line_new`
 * counters), so a new file's line 3 is `…_0_3`.
 */
export function lineCodes(path: string, rows: readonly DiffRow[]): Map<LineRow, string> {
  const hash = sha1Hex(path);
  const codes = new Map<LineRow, string>();
  let nextOld = 0;
  let nextNew = 0;
  for (const row of rows) {
    if ((row.type === 'expander' || row.type === 'hunk') && row.header) {
      const range = parseHunkHeader(row.header);
      if (range) {
        nextOld = range.oldStart;
        nextNew = range.newStart;
      }
      continue;
    }
    if (!isLine(row)) continue;
    const oldPosition = row.oldLine ?? nextOld;
    const newPosition = row.newLine ?? nextNew;
    codes.set(row, lineCodeFromHash(hash, oldPosition, newPosition));
    if (row.oldLine !== undefined && row.oldLine !== null) nextOld = row.oldLine + 1;
    if (row.newLine !== undefined && row.newLine !== null) nextNew = row.newLine + 1;
  }
  return codes;
}

/** A row as a point of a position: GitLab's type and the line numbers its side has. */
export function linePoint(row: Pick<LineRow, 'type' | 'oldLine' | 'newLine'>, code: string | null = null): LinePoint {
  if (row.type === 'add') return { line_code: code, type: 'new', old_line: null, new_line: row.newLine ?? null };
  if (row.type === 'delete') return { line_code: code, type: 'old', old_line: row.oldLine ?? null, new_line: null };
  return { line_code: code, type: null, old_line: row.oldLine ?? null, new_line: row.newLine ?? null };
}

/** The key a line's threads are found by: the line numbers of both sides (an empty side for added or removed lines). */
export function lineKey(point: { old_line?: number | null; new_line?: number | null }): string {
  return `${point.old_line ?? ''}_${point.new_line ?? ''}`;
}

const paths = (file: PositionFile) => ({ old_path: file.oldPath, new_path: file.newPath });

/**
 * A text position from where a drag started and where it ended. `startFirst` says which of
 * the two comes first in the diff (the page knows from the rows' order): a drag upwards is
 * the same range as a drag downwards. One line (start = end) has no line_range.
 */
export function textPosition(refs: PositionRefs, file: PositionFile, start: LinePoint, end: LinePoint = start, startFirst = true): TextPosition {
  const [first, last] = startFirst ? [start, end] : [end, start];
  const single = lineKey(first) === lineKey(last);
  return {
    ...refs,
    ...paths(file),
    position_type: 'text',
    old_line: last.old_line,
    new_line: last.new_line,
    line_range: single ? null : { start: first, end: last },
  };
}

export function filePosition(refs: PositionRefs, file: PositionFile): FilePosition {
  return { ...refs, ...paths(file), position_type: 'file' };
}

export interface Size {
  width: number;
  height: number;
}

/**
 * An image position from a click on the image as drawn: the point is scaled to the image's
 * natural size (so a pin lands on the same pixel however large the image is drawn), clamped
 * inside it, and width and height are the natural size.
 */
export function imagePosition(refs: PositionRefs, file: PositionFile, click: { x: number; y: number }, drawn: Size, natural: Size): ImagePosition {
  const scale = (value: number, from: number, to: number) => Math.min(Math.max(Math.round((value * to) / Math.max(from, 1)), 0), Math.max(to - 1, 0));
  return {
    ...refs,
    ...paths(file),
    position_type: 'image',
    x: scale(click.x, drawn.width, natural.width),
    y: scale(click.y, drawn.height, natural.height),
    width: natural.width,
    height: natural.height,
  };
}

/** Where a pin is drawn, in percent of the image, whatever size it is drawn at. */
export function pinPlacement(position: Pick<ImagePosition, 'x' | 'y' | 'width' | 'height'>): { left: string; top: string } {
  const percent = (value: number, of: number) => `${((value / Math.max(of, 1)) * 100).toFixed(3)}%`;
  return { left: percent(position.x, position.width), top: percent(position.y, position.height) };
}

/**
 * The lines a range covers, as GitLab's 'Comment on lines %{startLine} to %{endLine}' names them
 * (its multiline comment utils): an added line is `+<new line>`, a removed one `-<old line>`, an
 * unchanged one its bare number, on the new side when the other end is an added line, else the old.
 * Null for a single line.
 */
export function rangeLabel(position: TextPosition): string | null {
  if (!position.line_range) return null;
  const { start, end } = position.line_range;
  const name = (point: LinePoint, other: LinePoint) => {
    const number = point.type === 'new' || (!point.type && other.type === 'new') ? point.new_line : point.old_line;
    const symbol = point.type === 'new' ? '+' : point.type === 'old' ? '-' : '';
    return number ? `${symbol}${number}` : '';
  };
  const from = name(start, end);
  const to = name(end, start);
  // a range of one line (GitLab's own client sends one with every line comment) names nothing more
  return from && to && from !== to ? `${from} to ${to}` : null;
}

/** A dragged-over line as a point with its line code, found among the file's rows. */
export function pointFromRows(path: string, rows: readonly DiffRow[], line: Pick<LineRow, 'type' | 'oldLine' | 'newLine'>): LinePoint {
  const key = lineKey(linePoint(line));
  for (const [row, code] of lineCodes(path, rows)) {
    if (lineKey(linePoint(row)) === key) return linePoint(row, code);
  }
  return linePoint(line);
}
