/**
 * The lines a diff thread shows in the Activity section: up to EXCERPT_CONTEXT lines before
 * the commented one (or a range's first line) down to it, the commented ones marked. Pure.
 */
import type { TextPosition } from './position';

export const EXCERPT_CONTEXT = 3;
/** a long range shows its last lines only */
export const EXCERPT_MAX_LINES = 10;

export interface ExcerptLine {
  number: number;
  text: string;
  commented: boolean;
}

export function excerptLines(lines: readonly string[], position: Pick<TextPosition, 'old_line' | 'new_line' | 'line_range'>): ExcerptLine[] {
  const oldSide = position.new_line === null;
  const lineOf = (point: { old_line: number | null; new_line: number | null }) => (oldSide ? point.old_line : (point.new_line ?? point.old_line));
  const end = lineOf(position);
  if (end === null || end < 1) return [];
  const rangeStart = position.line_range ? lineOf(position.line_range.start) : null;
  const commentedFrom = rangeStart !== null && rangeStart >= 1 && rangeStart <= end ? rangeStart : end;
  const from = Math.max(1, commentedFrom - EXCERPT_CONTEXT, end - EXCERPT_MAX_LINES + 1);
  const result: ExcerptLine[] = [];
  for (let number = from; number <= Math.min(end, lines.length); number++) {
    result.push({ number, text: lines[number - 1] ?? '', commented: number >= commentedFrom });
  }
  return result;
}
