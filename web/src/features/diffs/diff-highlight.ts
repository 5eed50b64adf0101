import type { ParsedDiff } from '../../lib/diff-hunks';
import { languageForFile } from '../../lib/file-content';
import { highlightLines } from '../repository/highlighter';

/** Highlighted HTML per line number, for each side of a file. */
export interface FileHighlight {
  old: Map<number, string>;
  new: Map<number, string>;
}

/**
 * Highlights one side. With the whole file (fetched for expanding) every line is exact;
 * without it the side's lines from the hunks are highlighted as one text, which is right
 * except where a construct (a comment, a string) starts in a part the diff leaves out.
 */
function side(parsed: ParsedDiff, which: 'old' | 'new', language: string | null, whole: string[] | null): Map<number, string> {
  const result = new Map<number, string>();
  if (whole) {
    highlightLines(whole.join('\n'), language).forEach((html, index) => result.set(index + 1, html));
    return result;
  }
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
  if (texts.length === 0) return result;
  const html = highlightLines(`${texts.join('\n')}\n`, language);
  numbers.forEach((number, index) => result.set(number, html[index] ?? ''));
  return result;
}

export function highlightFile(path: string, parsed: ParsedDiff, whole: { old: string[] | null; new: string[] | null }): FileHighlight {
  const language = languageForFile(path);
  return { old: side(parsed, 'old', language, whole.old), new: side(parsed, 'new', language, whole.new) };
}
