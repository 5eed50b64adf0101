/**
 * A job log (GitLab's trace: text with ANSI escape codes) turned into lines of styled text, pure.
 * The output is data — text plus style classes — that React renders as text nodes, so nothing in
 * a log can become markup. Understood, as GitLab's job log does:
 * - SGR codes (`ESC[…m`): bold, italic, underline, the 8+8 colours (30–37, 90–97, 40–47, 100–107),
 *   256 colours and 24-bit colours (`38;5;n`, `38;2;r;g;b`, and 48 for the background), resets
 *   (0, 22, 23, 24, 39, 49); the style carries over from one line to the next;
 * - collapsible sections: `section_start:<unix time>:<name>[options]\r ESC[0K<header>` opens a section
 *   whose first line is its header, `section_end:<unix time>:<name>\r ESC[0K` closes it
 *   (`[collapsed=true]` starts it folded);
 * - a carriage return inside a line overwrites it (progress bars): the text after the last `\r` wins;
 * - every other escape sequence (cursor moves, erase line) is dropped.
 */

export interface AnsiStyle {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** A palette index 0–255 or an `rgb(r, g, b)` colour. */
  fg?: number | string;
  bg?: number | string;
}

export interface LogSegment {
  text: string;
  style: AnsiStyle;
}

export interface LogLine {
  /** 1-based, counting only the lines shown (section markers that leave nothing are not lines). */
  number: number;
  segments: LogSegment[];
  /** The sections this line is inside, outermost first (a header is inside its own section). */
  sections: string[];
  /** Set on a section's first line: the section's name, whether it starts folded, its duration in seconds once it ended. */
  header?: { section: string; collapsed: boolean; duration: number | null };
  /** When gitlab-runner wrote the line (its timestamped log format), ISO 8601 UTC. */
  timestamp?: string;
}

const ESC = '\u001b';
const SECTION_MARKER = /^section_(start|end):(\d+):([A-Za-z0-9_.-]+)(\[[^\]]*\])?\r/;
// eslint-disable-next-line no-control-regex -- escape sequences are what this file reads
const SGR = /^\u001b\[([0-9;]*)m/;
// eslint-disable-next-line no-control-regex -- escape sequences are what this file reads
const ERASE_OR_CURSOR = /\u001b\[[0-9;?]*[A-Za-ln-z]/g;

/** Applies one SGR sequence's parameters to a style, returning the new style. */
export function applySgr(style: AnsiStyle, params: number[]): AnsiStyle {
  const next: AnsiStyle = { ...style };
  const codes = params.length === 0 ? [0] : params;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) {
      for (const key of Object.keys(next)) delete next[key as keyof AnsiStyle];
    } else if (code === 1) next.bold = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) delete next.bold;
    else if (code === 23) delete next.italic;
    else if (code === 24) delete next.underline;
    else if (code >= 30 && code <= 37) next.fg = code - 30;
    else if (code >= 90 && code <= 97) next.fg = code - 90 + 8;
    else if (code === 39) delete next.fg;
    else if (code >= 40 && code <= 47) next.bg = code - 40;
    else if (code >= 100 && code <= 107) next.bg = code - 100 + 8;
    else if (code === 49) delete next.bg;
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg';
      if (codes[i + 1] === 5 && codes[i + 2] !== undefined) {
        const index = codes[i + 2]!;
        if (index >= 0 && index <= 255) next[key] = index;
        i += 2;
      } else if (codes[i + 1] === 2 && codes[i + 4] !== undefined) {
        const [r, g, b] = [codes[i + 2]!, codes[i + 3]!, codes[i + 4]!].map((value) => Math.max(0, Math.min(255, value)));
        next[key] = `rgb(${r}, ${g}, ${b})`;
        i += 4;
      }
    }
  }
  return next;
}

/** One line's text (no newline) into segments, starting from `style`; returns them and the style at its end. */
export function parseAnsiLine(text: string, style: AnsiStyle): { segments: LogSegment[]; style: AnsiStyle } {
  const segments: LogSegment[] = [];
  let current = style;
  let buffer = '';
  const flush = () => {
    if (buffer === '') return;
    const last = segments[segments.length - 1];
    if (last && sameStyle(last.style, current)) last.text += buffer;
    else segments.push({ text: buffer, style: current });
    buffer = '';
  };
  // A carriage return overwrites the line: keep what follows the last one (not a trailing one).
  const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
  const visible = trimmed.includes('\r') ? trimmed.slice(trimmed.lastIndexOf('\r') + 1) : trimmed;
  const cleaned = visible.replace(ERASE_OR_CURSOR, '');
  let i = 0;
  while (i < cleaned.length) {
    const char = cleaned[i]!;
    if (char === ESC) {
      const match = SGR.exec(cleaned.slice(i));
      if (match) {
        flush();
        const params = match[1] === '' ? [] : match[1]!.split(';').map((part) => (part === '' ? 0 : Number(part)));
        current = applySgr(current, params);
        i += match[0].length;
      } else {
        i += 1; // a lone or unknown escape: dropped
      }
      continue;
    }
    buffer += char;
    i += 1;
  }
  flush();
  return { segments, style: current };
}

function sameStyle(a: AnsiStyle, b: AnsiStyle): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.fg === b.fg && a.bg === b.bg;
}

/** Strips leading erase-line codes (`ESC[0K`) that GitLab's section markers are wrapped in. */
function stripLeadingErase(text: string): string {
  let rest = text;
  while (rest.startsWith(`${ESC}[0K`) || rest.startsWith(`${ESC}[K`)) rest = rest.slice(rest.indexOf('K') + 1);
  return rest;
}

const TIMESTAMP_PREFIX = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z) [0-9a-f]{2}[OE]\+? ?/;

/** A whole log into numbered lines with their sections (and gitlab-runner's per-line timestamps, when it writes them). */
export function parseJobLog(log: string): LogLine[] {
  const lines: LogLine[] = [];
  const open: { name: string; startedAt: number; header: LogLine['header'] }[] = [];
  let style: AnsiStyle = {};
  const rawLines = log.split('\n');
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  for (const stamped of rawLines) {
    // gitlab-runner's timestamped logs (FF_TIMESTAMPS): `<RFC 3339 UTC> <stream><O|E>[+] ` before each line.
    const stamp = TIMESTAMP_PREFIX.exec(stamped);
    const timestamp = stamp ? stamp[1]! : undefined;
    const raw = stamp ? stamped.slice(stamp[0].length) : stamped;
    let rest = stripLeadingErase(raw);
    let startsSection: { name: string; collapsed: boolean; startedAt: number } | null = null;
    // A line may carry several markers (an end right before a start): read them all.
    for (let marker = SECTION_MARKER.exec(rest); marker; marker = SECTION_MARKER.exec(rest)) {
      const [whole, kind, time, name, options] = marker;
      rest = stripLeadingErase(rest.slice(whole.length));
      if (kind === 'start') {
        startsSection = { name: name!, collapsed: /collapsed=true/.test(options ?? ''), startedAt: Number(time) };
        break;
      }
      const index = open.map((section) => section.name).lastIndexOf(name!);
      if (index !== -1) {
        const ended = open[index]!;
        if (ended.header) ended.header.duration = Math.max(0, Number(time) - ended.startedAt);
        open.splice(index);
      }
    }
    if (startsSection) {
      const header = { section: startsSection.name, collapsed: startsSection.collapsed, duration: null };
      open.push({ name: startsSection.name, startedAt: startsSection.startedAt, header });
      const parsed = parseAnsiLine(rest, style);
      style = parsed.style;
      lines.push({ number: lines.length + 1, segments: parsed.segments, sections: open.map((section) => section.name), header, ...(timestamp ? { timestamp } : {}) });
      continue;
    }
    // A line that held only an end marker is not shown.
    if (rest === '' && raw !== rest && raw.includes('section_end:')) continue;
    const parsed = parseAnsiLine(rest, style);
    style = parsed.style;
    lines.push({ number: lines.length + 1, segments: parsed.segments, sections: open.map((section) => section.name), ...(timestamp ? { timestamp } : {}) });
  }
  return lines;
}

/**
 * The lines shown when the sections in `collapsed` are folded: a folded section shows its header
 * only. Sections are named by their path (outer names joined), so equal names nested elsewhere fold
 * independently.
 */
export function visibleLines(lines: LogLine[], collapsed: ReadonlySet<string>): LogLine[] {
  return lines.filter((line) => {
    const own = line.header ? line.sections.length - 1 : line.sections.length;
    for (let depth = 0; depth < own; depth++) {
      if (collapsed.has(sectionPath(line.sections, depth))) return false;
    }
    return true;
  });
}

/** The key of the section at `depth` in a line's list of sections. */
export function sectionPath(sections: string[], depth: number): string {
  return sections.slice(0, depth + 1).join('/');
}

/** The sections that start folded (`[collapsed=true]`), by path. */
export function initiallyCollapsed(lines: LogLine[]): Set<string> {
  const keys = new Set<string>();
  for (const line of lines) if (line.header?.collapsed) keys.add(sectionPath(line.sections, line.sections.length - 1));
  return keys;
}

/** The 16 basic colours by name (the rest of the 256 are computed), for the CSS class of a colour. */
const BASIC_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The CSS class name of a basic colour (0–15), e.g. `red`, `l-red` for the bright ones; null otherwise. */
export function basicColourName(colour: number | string | undefined): string | null {
  if (typeof colour !== 'number' || colour > 15) return null;
  return colour < 8 ? BASIC_NAMES[colour]! : `l-${BASIC_NAMES[colour - 8]!}`;
}

/** A 256-palette index above 15 as an rgb() colour (the xterm cube and greys), or a given rgb() as is. */
export function extendedColour(colour: number | string | undefined): string | null {
  if (colour === undefined) return null;
  if (typeof colour === 'string') return colour;
  if (colour <= 15) return null;
  if (colour >= 232) {
    const grey = 8 + (colour - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const index = colour - 16;
  const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
  return `rgb(${level(Math.floor(index / 36))}, ${level(Math.floor(index / 6) % 6)}, ${level(index % 6)})`;
}
