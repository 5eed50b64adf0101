/**
 * What a suggestion block shows and what the batch holds, as pure functions (tested beside).
 */
import { linesBetween, splitSuggestions, suggestionRange, toContent } from '@tributary/contracts/suggestions';
import type { BatchEntry, SuggestionEntity } from './model';

export type { BatchEntry } from './model';

export interface SuggestionLine {
  type: 'old' | 'new';
  /** the line's number in the file: old lines from the commented range, new ones from its start */
  number: number;
  text: string;
}

/** Ruby's String#lines without the breaks: a final line break adds no empty line. */
function lines(content: string): string[] {
  if (content === '') return [];
  return content.replace(/\r?\n$/, '').split(/\r?\n/);
}

/** The proposed change as GitLab draws it: the current lines (removed), then the suggested ones (added). */
export function suggestionLines(suggestion: Pick<SuggestionEntity, 'from_line' | 'from_content' | 'to_content'>): SuggestionLine[] {
  const old = lines(suggestion.from_content).map((text, i): SuggestionLine => ({ type: 'old', number: suggestion.from_line + i, text }));
  const added = lines(suggestion.to_content).map((text, i): SuggestionLine => ({ type: 'new', number: suggestion.from_line + i, text }));
  return [...old, ...added];
}

/** Adds the suggestion to the batch, or takes it out when it is there. */
export function toggleBatch(batch: readonly BatchEntry[], entry: BatchEntry): BatchEntry[] {
  return batch.some((item) => item.suggestionId === entry.suggestionId) ? batch.filter((item) => item.suggestionId !== entry.suggestionId) : [...batch, entry];
}

/** The commented lines of a text position on the new side, for 'Insert suggestion'; null on a removed line. */
export function commentedLines(position: { new_line: number | null; line_range?: { start: { new_line: number | null } } | null }): { start: number; end: number } | null {
  if (position.new_line === null) return null;
  const start = position.line_range?.start.new_line ?? position.new_line;
  return { start: Math.min(start, position.new_line), end: position.new_line };
}

/** Lines `start`..`end` (1-based) of a file's text, without their line breaks. */
export function fileLines(text: string, start: number, end: number): string {
  return text.split(/\r?\n/).slice(start - 1, end).join('\n');
}

/** A piece of a comment's preview: Markdown, or a suggestion as the posted note will show it. */
export type PreviewSegment = { kind: 'markdown'; text: string } | { kind: 'suggestion'; suggestion: Pick<SuggestionEntity, 'from_line' | 'from_content' | 'to_content'> };

/**
 * A comment body's suggestions as the server will record them (the same range, lines and
 * to_content rules), from the commented file's text at the position's head and the commented
 * line: what the Preview tab draws before the note is posted.
 */
export function previewSegments(body: string, fileText: string, targetLine: number): PreviewSegment[] {
  return splitSuggestions(body).map((segment): PreviewSegment => {
    if (segment.kind === 'markdown') return segment;
    const range = suggestionRange(targetLine, segment.above, segment.below);
    const fromContent = linesBetween(fileText, range);
    return { kind: 'suggestion', suggestion: { from_line: range.from, from_content: fromContent, to_content: toContent(segment.text, fromContent) } };
  });
}
