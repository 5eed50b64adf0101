/**
 * Which lines of a file's diff a text position may name (GitLab's Gitlab::Diff::Parser,
 * Diff::File#line_for_position and Position#unfoldable?). Pure.
 *
 * The parser counts lines as GitLab does: every line carries the old and new line numbers
 * reached so far (`oldPosition`, `newPosition`); an added line has no old line but still an
 * old position, which is why its line code is `<sha>_<old position>_<new line>`.
 */
import type { LineType } from './position.js';

export interface DiffLine {
  type: LineType;
  /** null for an added line */
  oldLine: number | null;
  /** null for a removed line */
  newLine: number | null;
  oldPosition: number;
  newPosition: number;
}

export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface ParsedDiff {
  lines: DiffLine[];
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses GitLab's `diff` text (hunks, from the first `@@`). Anything before a hunk is ignored. */
export function parseDiffLines(text: string): ParsedDiff {
  const lines: DiffLine[] = [];
  const hunks: Hunk[] = [];
  let oldPosition = 0;
  let newPosition = 0;
  let inHunk = false;
  const rows = text.split('\n');
  // A trailing newline ends the last line; it does not start an empty one.
  if (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  for (const row of rows) {
    const header = HUNK_HEADER.exec(row);
    if (header) {
      const hunk = { oldStart: Number(header[1]), oldCount: header[2] === undefined ? 1 : Number(header[2]), newStart: Number(header[3]), newCount: header[4] === undefined ? 1 : Number(header[4]) };
      hunks.push(hunk);
      // As GitLab's parser: counting starts at the header's numbers, so the old side of a new
      // file (`-0,0`) is position 0, and lines added after old line 3 (`-3,0`) are at old position 3.
      oldPosition = hunk.oldStart;
      newPosition = hunk.newStart;
      inHunk = true;
      continue;
    }
    if (!inHunk || row.startsWith('\\')) continue;
    const marker = row[0];
    if (marker === '+') {
      lines.push({ type: 'new', oldLine: null, newLine: newPosition, oldPosition, newPosition });
      newPosition++;
    } else if (marker === '-') {
      lines.push({ type: 'old', oldLine: oldPosition, newLine: null, oldPosition, newPosition });
      oldPosition++;
    } else if (marker === ' ') {
      lines.push({ type: null, oldLine: oldPosition, newLine: newPosition, oldPosition, newPosition });
      oldPosition++;
      newPosition++;
    }
  }
  return { lines, hunks };
}

export interface LineRequest {
  oldLine: number | null;
  newLine: number | null;
}

/** The diff line a position names: old and new line both equal, as GitLab's line_for_position. */
export function findDiffLine(diff: ParsedDiff, request: LineRequest): DiffLine | undefined {
  return diff.lines.find((line) => line.oldLine === request.oldLine && line.newLine === request.newLine);
}

/**
 * An unchanged line the diff does not show (GitLab "unfolds" the diff to comment on it): both
 * lines given, neither inside a hunk, and the two numbers a line apart by exactly what the
 * hunks above it added and removed. Whether the file has that many lines is checked with the
 * file itself (`newFileLines`).
 */
export function isUnfoldableLine(diff: ParsedDiff, request: LineRequest, newFileLines: number): boolean {
  const { oldLine, newLine } = request;
  if (oldLine === null || newLine === null || newLine > newFileLines) return false;
  let offset = 0;
  for (const hunk of diff.hunks) {
    // a count of 0 means the hunk sits after line `start` on that side
    const nextOld = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart + hunk.oldCount;
    const nextNew = hunk.newCount === 0 ? hunk.newStart + 1 : hunk.newStart + hunk.newCount;
    const insideOld = hunk.oldCount > 0 && oldLine >= hunk.oldStart && oldLine < nextOld;
    const insideNew = hunk.newCount > 0 && newLine >= hunk.newStart && newLine < nextNew;
    if (insideOld || insideNew) return false;
    if (newLine >= nextNew) offset = nextNew - nextOld;
  }
  return newLine - oldLine === offset;
}

/** How many lines a file's text has (a last line without a newline counts). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}
