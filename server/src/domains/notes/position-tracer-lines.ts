/**
 * The lines an outdated thread's page shows (GitLab's MergeRequests::OutdatedDiscussionDiffLinesService
 * behind `outdated_line_change_path`): the changed line of the diff that made the thread
 * outdated, with up to two lines of the same hunk on each side. Pure.
 */
import { lineCode } from './position.js';
import type { LineType } from './position.js';

/** GitLab: OVERFLOW_LINES_COUNT, the lines shown around the changed one. */
export const OUTDATED_CONTEXT_LINES = 2;

export interface ExcerptLine {
  line_code: string;
  type: LineType;
  old_line: number | null;
  new_line: number | null;
  /** the diff line as git prints it, marker included (GitLab's `text`) */
  text: string;
  /** the line's content as HTML (escaped; GitLab highlights it) */
  rich_text: string;
}

interface TextLine extends Omit<ExcerptLine, 'line_code' | 'rich_text'> {
  oldPosition: number;
  newPosition: number;
  hunk: number;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The diff's lines with their text and hunk, counted as GitLab's parser (diff-lines.ts) counts them. */
export function diffTextLines(patch: string): TextLine[] {
  const out: TextLine[] = [];
  let oldPosition = 0;
  let newPosition = 0;
  let hunk = -1;
  const rows = patch.split('\n');
  if (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  for (const row of rows) {
    const header = HUNK_HEADER.exec(row);
    if (header) {
      oldPosition = Number(header[1]);
      newPosition = Number(header[2]);
      hunk++;
      continue;
    }
    if (hunk < 0 || row.startsWith('\\')) continue;
    const marker = row[0];
    if (marker === '+') out.push({ type: 'new', old_line: null, new_line: newPosition, text: row, oldPosition, newPosition: newPosition++, hunk });
    else if (marker === '-') out.push({ type: 'old', old_line: oldPosition, new_line: null, text: row, oldPosition: oldPosition++, newPosition, hunk });
    else if (marker === ' ') out.push({ type: null, old_line: oldPosition, new_line: newPosition, text: row, oldPosition: oldPosition++, newPosition: newPosition++, hunk });
  }
  return out;
}

/**
 * The excerpt around the line a change position names (both numbers as given; else by its
 * new line, else its old line, as GitLab looks it up). Empty when the diff does not show it.
 */
export function outdatedExcerpt(patch: string, path: string, point: { oldLine: number | null; newLine: number | null }): ExcerptLine[] {
  const lines = diffTextLines(patch);
  let index = lines.findIndex((line) => line.old_line === point.oldLine && line.new_line === point.newLine);
  if (index < 0 && point.newLine !== null) index = lines.findIndex((line) => line.new_line === point.newLine);
  if (index < 0 && point.oldLine !== null) index = lines.findIndex((line) => line.old_line === point.oldLine);
  if (index < 0) return [];
  const { hunk } = lines[index]!;
  return lines
    .slice(Math.max(0, index - OUTDATED_CONTEXT_LINES), index + OUTDATED_CONTEXT_LINES + 1)
    .filter((line) => line.hunk === hunk)
    .map((line) => ({
      line_code: lineCode(path, line.oldPosition, line.newPosition),
      type: line.type,
      old_line: line.old_line,
      new_line: line.new_line,
      text: line.text,
      rich_text: escapeHtml(line.text.slice(1)),
    }));
}
