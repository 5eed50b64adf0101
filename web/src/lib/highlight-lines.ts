/**
 * highlight.js returns one HTML string whose `<span>`s may cross line breaks
 * (multi-line comments and strings). To number lines, the string is cut at each
 * `\n`, closing the spans open at the cut and reopening them on the next line,
 * so every line is well-formed HTML on its own.
 */
const TOKEN = /(<span[^>]*>)|(<\/span>)|(\n)|([^<\n]+|<)/g;

export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  for (const match of html.matchAll(TOKEN)) {
    const [, opening, closing, newline, text] = match;
    if (opening) {
      open.push(opening);
      current += opening;
    } else if (closing) {
      open.pop();
      current += closing;
    } else if (newline) {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (text) {
      current += text;
    }
  }
  lines.push(current);
  return lines;
}

/** Escapes text for use as HTML when no highlighter runs. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A file's lines without the empty one after a trailing newline. */
export function dropTrailingEmptyLine(lines: string[]): string[] {
  return lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}
