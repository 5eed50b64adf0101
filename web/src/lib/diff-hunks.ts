/**
 * A GitLab diff entry's `diff` text (hunks only, no `---`/`+++` headers) parsed into hunks
 * with their ranges, so context between and after them can be expanded
 * (hunk-expansion.ts) and lines can be paired side by side (side-by-side.ts). Pure.
 */
export type ChangeType = 'context' | 'add' | 'delete';

export interface ChangeLine {
  type: ChangeType;
  text: string;
  oldLine: number | null;
  newLine: number | null;
}

/** "\ No newline at end of file" and anything else that is not a line of either file. */
export interface NoteLine {
  type: 'note';
  text: string;
}

export type HunkLine = ChangeLine | NoteLine;

export interface Hunk {
  /** The `@@ -a,b +c,d @@ section` line as git printed it. */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: HunkLine[];
}

export interface ParsedDiff {
  hunks: Hunk[];
  /** Text before the first hunk, e.g. "Binary files a/x and b/x differ". */
  preamble: string[];
  added: number;
  removed: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const AT = '@'.charCodeAt(0);
const FILE_HEADER = /^(---|\+\+\+|diff --git|index |(old|new|deleted file|new file) mode|similarity index|rename (from|to) )/;

export function parseHunkHeader(line: string): Pick<Hunk, 'oldStart' | 'oldCount' | 'newStart' | 'newCount'> | null {
  const match = HUNK_HEADER.exec(line);
  if (!match) return null;
  // An omitted count means 1 (git prints `@@ -3 +3 @@` for one-line ranges).
  return {
    oldStart: Number(match[1]),
    oldCount: match[2] === undefined ? 1 : Number(match[2]),
    newStart: Number(match[3]),
    newCount: match[4] === undefined ? 1 : Number(match[4]),
  };
}

export function parseDiffHunks(diff: string): ParsedDiff {
  const result: ParsedDiff = { hunks: [], preamble: [], added: 0, removed: 0 };
  const raw = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (raw === '') return result;
  let hunk: Hunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  for (const line of raw.split('\n')) {
    // Only a line starting with "@" can be a hunk header: skip the regex for the others.
    const range = line.charCodeAt(0) === AT ? parseHunkHeader(line) : null;
    if (range) {
      hunk = { header: line, ...range, lines: [] };
      result.hunks.push(hunk);
      oldLine = range.oldStart;
      newLine = range.newStart;
    } else if (!hunk) {
      if (!FILE_HEADER.test(line)) result.preamble.push(line);
    } else if (line.startsWith('+')) {
      hunk.lines.push({ type: 'add', text: line.slice(1), oldLine: null, newLine: newLine++ });
      result.added++;
    } else if (line.startsWith('-')) {
      hunk.lines.push({ type: 'delete', text: line.slice(1), oldLine: oldLine++, newLine: null });
      result.removed++;
    } else if (line.startsWith('\\')) {
      hunk.lines.push({ type: 'note', text: line.slice(1).trim() });
    } else {
      // A context line; an empty line is a context line whose leading space was trimmed.
      hunk.lines.push({ type: 'context', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return result;
}

/**
 * The first line number at or after a hunk's position on one side. A range with count 0
 * (nothing on that side) names the line *before* the change, so the hunk starts after it.
 */
export function firstLineOf(start: number, count: number): number {
  return count === 0 ? start + 1 : start;
}

/** One row of a plain unified view: a hunk header, a note (preamble or "\ No newline…") or a line. */
export type UnifiedLine = { type: 'hunk'; text: string } | HunkLine;

/** The rows of a plain unified view (a commit's files), in the order git printed them. */
export function unifiedLines(parsed: ParsedDiff): UnifiedLine[] {
  const rows: UnifiedLine[] = parsed.preamble.map((text) => ({ type: 'note', text }));
  for (const hunk of parsed.hunks) rows.push({ type: 'hunk', text: hunk.header }, ...hunk.lines);
  return rows;
}
