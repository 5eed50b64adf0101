/**
 * Parses the `diff` text of a GitLab diff entry (hunks only, no `---`/`+++`
 * headers) into numbered lines for a unified diff view.
 */
export type DiffLine =
  | { type: 'hunk'; text: string }
  | { type: 'context' | 'add' | 'delete'; text: string; oldLine: number | null; newLine: number | null }
  | { type: 'note'; text: string };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  const raw = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (raw === '') return lines;
  for (const line of raw.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      lines.push({ type: 'hunk', text: line });
    } else if (!inHunk) {
      // Outside a hunk: file headers are dropped, anything else ("Binary files a and b differ") is a note.
      if (!/^(---|\+\+\+|diff --git|index |(old|new|deleted file|new file) mode)/.test(line)) lines.push({ type: 'note', text: line });
    } else if (line.startsWith('+')) {
      lines.push({ type: 'add', text: line.slice(1), oldLine: null, newLine: newLine++ });
    } else if (line.startsWith('-')) {
      lines.push({ type: 'delete', text: line.slice(1), oldLine: oldLine++, newLine: null });
    } else if (line.startsWith('\\')) {
      lines.push({ type: 'note', text: line.slice(1).trim() });
    } else if (line.startsWith(' ') || line === '') {
      lines.push({ type: 'context', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
    } else {
      lines.push({ type: 'note', text: line });
    }
  }
  return lines;
}

export function diffStats(lines: DiffLine[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of lines) {
    if (line.type === 'add') additions++;
    else if (line.type === 'delete') deletions++;
  }
  return { additions, deletions };
}
