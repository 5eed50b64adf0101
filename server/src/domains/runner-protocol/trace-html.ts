/**
 * The tail of a job log as HTML, pure: GitLab's `CiJobTrace.htmlSummary` (Gitlab::Ci::Ansi2html
 * on the last lines). Every run of text is an HTML-escaped `<span>`, with GitLab's `term-*`
 * classes for its ANSI style (`term-bold`, `term-italic`, `term-underline`, `term-fg-red`,
 * `term-fg-l-red` for the bright colours, `term-bg-…`), lines are joined by `<br/>`, section
 * markers and other escape sequences are dropped, and a carriage return inside a line keeps
 * what follows it (a progress bar's last state). Nothing in the log can become markup.
 */

/** GitLab's limits: at most 100 lines (10 by default) from at most the last 16 KB of the log. */
export const HTML_SUMMARY_MAX_BYTES = 16 * 1024;
export const HTML_SUMMARY_MAX_LINES = 100;
export const HTML_SUMMARY_DEFAULT_LINES = 10;

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
// eslint-disable-next-line no-control-regex -- escape sequences are what this file reads
const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?\r(?:\u001b\[0K)?/g;
// eslint-disable-next-line no-control-regex -- escape sequences are what this file reads
const ESCAPE = /\u001b\[([0-9;?]*)([A-Za-z])/g;

interface Style {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  fg?: string;
  bg?: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function colour(code: number, base: number): string | null {
  if (code >= base && code <= base + 7) return COLOURS[code - base]!;
  if (code >= base + 60 && code <= base + 67) return `l-${COLOURS[code - base - 60]!}`;
  return null;
}

function applySgr(style: Style, params: string): Style {
  const next: Style = { ...style };
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) for (const key of Object.keys(next)) delete next[key as keyof Style];
    else if (code === 1) next.bold = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) delete next.bold;
    else if (code === 23) delete next.italic;
    else if (code === 24) delete next.underline;
    else if (code === 39) delete next.fg;
    else if (code === 49) delete next.bg;
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0; // 256 and 24-bit colours: GitLab's classes have none
    else {
      const fg = colour(code, 30);
      const bg = colour(code, 40);
      if (fg) next.fg = fg;
      else if (bg) next.bg = bg;
    }
  }
  return next;
}

function classes(style: Style): string {
  return [style.fg ? `term-fg-${style.fg}` : '', style.bg ? `term-bg-${style.bg}` : '', style.bold ? 'term-bold' : '', style.italic ? 'term-italic' : '', style.underline ? 'term-underline' : ''].filter(Boolean).join(' ');
}

/** One log line as spans; the style it ends with carries into the next line. */
function renderLine(line: string, start: Style): { html: string; style: Style } {
  let style = start;
  let html = '';
  let last = 0;
  const text = line.replace(SECTION_MARKER, '');
  const emit = (piece: string) => {
    if (piece === '') return;
    const names = classes(style);
    html += `<span${names ? ` class="${names}"` : ''}>${escapeHtml(piece)}</span>`;
  };
  for (const match of text.matchAll(ESCAPE)) {
    emit(text.slice(last, match.index));
    if (match[2] === 'm') style = applySgr(style, match[1]!);
    last = match.index + match[0].length;
  }
  emit(text.slice(last));
  return { html, style };
}

/** The last `lastLines` lines (clamped to 1–100) of the log's last 16 KB, as GitLab's HTML. */
export function traceHtmlSummary(log: Buffer, lastLines: number = HTML_SUMMARY_DEFAULT_LINES): string {
  const wanted = Math.min(Math.max(Math.trunc(lastLines) || 1, 1), HTML_SUMMARY_MAX_LINES);
  const tail = log.subarray(Math.max(0, log.length - HTML_SUMMARY_MAX_BYTES)).toString('utf8');
  const lines = tail.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let style: Style = {};
  const rendered: string[] = [];
  for (const raw of lines.slice(-wanted)) {
    // a carriage return overwrites the line (not the one a section marker ends with, removed first)
    const withoutMarkers = raw.replace(SECTION_MARKER, '');
    const visible = withoutMarkers.includes('\r') ? withoutMarkers.slice(withoutMarkers.lastIndexOf('\r', withoutMarkers.length - 2) + 1).replace(/\r$/, '') : withoutMarkers;
    const line = renderLine(visible, style);
    style = line.style;
    rendered.push(line.html);
  }
  return rendered.join('<br/>');
}
