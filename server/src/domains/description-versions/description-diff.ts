/**
 * The word diff between two description versions (GitLab's description_diff: the new text
 * with removed words struck through and added ones marked). Tokens are runs of word
 * characters, runs of spaces, and single other characters, so punctuation and line breaks
 * count as changes of their own. Pure.
 */
export interface DiffSegment {
  type: 'same' | 'added' | 'removed';
  text: string;
}

/** Above this many token pairs the comparison would be slow: the whole text is then replaced. */
export const MAX_DIFF_CELLS = 4_000_000;

export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|[^\S\n]+|\n|[^\p{L}\p{N}_\s]/gu) ?? [];
}

function push(segments: DiffSegment[], type: DiffSegment['type'], text: string): void {
  if (text === '') return;
  const last = segments[segments.length - 1];
  if (last && last.type === type) last.text += text;
  else segments.push({ type, text });
}

export function descriptionDiff(before: string, after: string): DiffSegment[] {
  const a = tokenize(before);
  const b = tokenize(after);
  // the common head and tail cost nothing and shrink the table
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const segments: DiffSegment[] = [];
  push(segments, 'same', a.slice(0, head).join(''));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length * midB.length > MAX_DIFF_CELLS) {
    push(segments, 'removed', midA.join(''));
    push(segments, 'added', midB.join(''));
  } else {
    // longest common subsequence, walked from the start
    const n = midA.length;
    const m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        push(segments, 'same', midA[i]!);
        i++;
        j++;
      } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push(segments, 'removed', midA[i++]!);
      else push(segments, 'added', midB[j++]!);
    }
    while (i < n) push(segments, 'removed', midA[i++]!);
    while (j < m) push(segments, 'added', midB[j++]!);
  }
  push(segments, 'same', a.slice(a.length - tail).join(''));
  return segments;
}
