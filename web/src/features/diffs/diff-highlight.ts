import type { ParsedDiff } from '../../lib/diff-hunks';
import { languageForFile } from '../../lib/file-content';

/** Highlighted HTML per line number, for each side of a file. */
export interface FileHighlight {
  old: Map<number, string>;
  new: Map<number, string>;
}

/** highlight.js behind `features/repository/highlighter`: one well-formed HTML string per line. */
export type Highlighter = (text: string, language: string | null) => string[];

/**
 * Lines highlighted in one step. A step is one task on the page's main thread, so a file
 * of many thousand lines is highlighted in several short tasks rather than one long one
 * (highlight.js does roughly this many lines in 10–20 ms). A construct that spans two
 * steps (a long comment) is highlighted as two parts, the price of never blocking.
 */
export const HIGHLIGHT_STEP_LINES = 1000;

interface Segment {
  side: 'old' | 'new';
  numbers: number[];
  texts: string[];
}

/**
 * One side's lines to highlight. With the whole file (fetched for expanding) every line is
 * exact; without it the side's lines from the hunks are highlighted as one text, which is
 * right except where a construct (a comment, a string) starts in a part the diff leaves out.
 */
function sideLines(parsed: ParsedDiff, which: 'old' | 'new', whole: string[] | null): { numbers: number[]; texts: string[] } {
  if (whole) return { numbers: whole.map((_, index) => index + 1), texts: whole };
  const numbers: number[] = [];
  const texts: string[] = [];
  for (const hunk of parsed.hunks) {
    for (const line of hunk.lines) {
      if (line.type === 'note') continue;
      const number = which === 'old' ? line.oldLine : line.newLine;
      if (number === null) continue;
      numbers.push(number);
      texts.push(line.text);
    }
  }
  return { numbers, texts };
}

function segments(parsed: ParsedDiff, whole: { old: string[] | null; new: string[] | null }): Segment[] {
  const result: Segment[] = [];
  for (const side of ['old', 'new'] as const) {
    const { numbers, texts } = sideLines(parsed, side, whole[side]);
    for (let start = 0; start < texts.length; start += HIGHLIGHT_STEP_LINES) {
      result.push({ side, numbers: numbers.slice(start, start + HIGHLIGHT_STEP_LINES), texts: texts.slice(start, start + HIGHLIGHT_STEP_LINES) });
    }
  }
  return result;
}

export interface HighlightJob {
  /** Highlights the next part; returns the whole file's highlighting after the last one, else null. */
  step(highlight: Highlighter): FileHighlight | null;
}

/** Highlighting of a file, to be done a step at a time. */
export function highlightJob(path: string, parsed: ParsedDiff, whole: { old: string[] | null; new: string[] | null }): HighlightJob {
  const language = languageForFile(path);
  const parts = segments(parsed, whole);
  const result: FileHighlight = { old: new Map(), new: new Map() };
  let next = 0;
  return {
    step(highlight) {
      const part = parts[next++];
      if (part) {
        const html = highlight(`${part.texts.join('\n')}\n`, language);
        part.numbers.forEach((number, index) => result[part.side].set(number, html[index] ?? ''));
      }
      return next >= parts.length ? result : null;
    },
  };
}
