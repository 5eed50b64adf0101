/**
 * Suggested changes in comments (GitLab's "```suggestion:-N+M" fences), shared by the server,
 * which turns them into suggestion rows, and the web app, which draws them as proposed
 * changes. Pure.
 *
 * A suggestion is a fenced code block whose info string starts with `suggestion`, optionally
 * followed by `:-N+M`: replace N lines above through M lines below the commented line with the
 * block's text. Fences follow CommonMark (``` or ~~~, at most three spaces of indentation, a
 * closing fence of the same character at least as long, an unclosed fence runs to the end);
 * code blocks of other languages are skipped whole, so an example inside one is not a
 * suggestion. GitLab reads the same blocks from its rendered Markdown (pre.language-suggestion).
 */

/** GitLab's SuggestionsParser::SUGGESTION_CONTEXT: "-1", "+1" or "-1+2"; anything else is -0+0. */
const CONTEXT = /^(?:-(\d+))?(?:\+(\d+))?$/;
const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;

export interface ParsedSuggestion {
  /** lines above the commented line that the suggestion replaces (GitLab's lines_above) */
  above: number;
  /** lines below it (lines_below) */
  below: number;
  /** the block's text, without its final line break */
  text: string;
}

export type BodySegment = { kind: 'markdown'; text: string } | ({ kind: 'suggestion'; index: number } & ParsedSuggestion);

function suggestionParams(info: string): { above: number; below: number } | null {
  const word = info.trim().split(/\s+/)[0] ?? '';
  if (word !== 'suggestion' && !word.startsWith('suggestion:')) return null;
  const match = CONTEXT.exec(word.slice('suggestion:'.length));
  if (word === 'suggestion' || !match) return { above: 0, below: 0 };
  return { above: Number(match[1] ?? 0), below: Number(match[2] ?? 0) };
}

/** The body cut into Markdown and suggestion blocks, in order; joined back it is the whole body. */
export function splitSuggestions(body: string): BodySegment[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const segments: BodySegment[] = [];
  let markdown: string[] = [];
  let index = 0;
  const flush = () => {
    if (markdown.length > 0) segments.push({ kind: 'markdown', text: markdown.join('\n') });
    markdown = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const opening = OPENING.exec(lines[i]!);
    const fence = opening?.[2] ?? '';
    if (!opening || (fence[0] === '`' && opening[3]!.includes('`'))) {
      markdown.push(lines[i]!);
      continue;
    }
    const indent = opening[1]!.length;
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    const params = suggestionParams(opening[3]!);
    if (!params) {
      // another language: its lines stay Markdown, fences included
      markdown.push(...lines.slice(i, Math.min(end + 1, lines.length)));
    } else {
      flush();
      const content = lines.slice(i + 1, end).map((line) => line.replace(new RegExp(`^ {0,${indent}}`), ''));
      segments.push({ kind: 'suggestion', index: index++, ...params, text: content.join('\n') });
    }
    i = end;
  }
  flush();
  return segments;
}

/** The suggestions of a comment body, in order (their index is GitLab's relative_order). */
export function parseSuggestions(body: string): ParsedSuggestion[] {
  return splitSuggestions(body).flatMap((segment) => (segment.kind === 'suggestion' ? [{ above: segment.above, below: segment.below, text: segment.text }] : []));
}

/** The block GitLab's "Insert suggestion" puts in a comment: the commented lines, ready to edit. */
export function suggestionTemplate(content: string, above = 0, below = 0): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}suggestion:-${above}+${below}\n${content}\n${fence}`;
}

/** GitLab's Suggestible::MAX_LINES_CONTEXT: a suggestion reaches at most `-100+100`. */
export const MAX_LINES_CONTEXT = 100;

/** Lines of a file that a suggestion replaces. */
export interface SuggestionLineRange {
  /** 1-based, inclusive */
  from: number;
  to: number;
}

/** Suggestible#from_line / #to_line: the commented line widened by the fence's context. */
export function suggestionRange(targetLine: number, above: number, below: number): SuggestionLineRange {
  return { from: Math.max(targetLine - Math.min(above, MAX_LINES_CONTEXT), 1), to: targetLine + Math.min(below, MAX_LINES_CONTEXT) };
}

/** Ruby's String#lines: each line keeps its line break; a last line without one is kept too. */
export function splitLines(content: string): string[] {
  return content.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The text of lines `from`..`to` (Gitlab::Diff::File#new_blob_lines_between). */
export function linesBetween(content: string, range: SuggestionLineRange): string {
  return splitLines(content)
    .slice(range.from - 1, range.to)
    .join('');
}

/**
 * Gitlab::Diff::Suggestion#to_content: the fence's text ends with the line break of the last
 * line it replaces (the fence itself does not say whether there was one); a blank fence
 * deletes the lines.
 */
export function toContent(text: string, fromContent: string): string {
  if (text.trim() === '') return '';
  const lines = splitLines(fromContent);
  const lastBreak = /\r\n|\r|\n/.exec(lines[lines.length - 1] ?? '')?.[0] ?? '';
  return `${text}${lastBreak}`;
}
