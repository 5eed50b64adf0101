/**
 * A line diff of two texts in git's unified format (hunks only, 3 lines of context), for
 * files whose patch the server left out (`collapsed`) once someone asks to expand them:
 * the page fetches both blobs and diffs them here. Myers' O(ND) algorithm after trimming
 * the common prefix and suffix; past MAX_EDIT_DISTANCE the changed middle is shown as one
 * replacement rather than spending unbounded time and memory. Pure.
 */
export const DIFF_CONTEXT_LINES = 3;
/** Edit scripts longer than this are not minimised (memory grows with its square). */
export const MAX_EDIT_DISTANCE = 1000;

type Op = 'equal' | 'delete' | 'insert';

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Myers' greedy algorithm with a saved frontier per step, backtracked into operations. */
function myers(a: readonly string[], b: readonly string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, depth: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const frontier = trace[d]!;
    // frontier holds v[-d-1 .. d+1] of step d's start, i.e. the end of step d-1.
    const at = (k: number) => frontier[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('equal');
      x--;
      y--;
    }
    ops.push(x === prevX ? 'insert' : 'delete');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('equal');
    x--;
    y--;
  }
  return ops.reverse();
}

function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle: Op[] = myers(midA, midB) ?? [...midA.map((): Op => 'delete'), ...midB.map((): Op => 'insert')];
  return [...Array<Op>(prefix).fill('equal'), ...middle, ...Array<Op>(suffix).fill('equal')];
}

/** git's range start: the first line, or for an empty range the line before it. */
const rangeStart = (first: number, count: number) => (count === 0 ? first - 1 : first);
const range = (first: number, count: number) => (count === 1 ? `${rangeStart(first, count)}` : `${rangeStart(first, count)},${count}`);

/** The hunks of `before` → `after`, as GitLab's `diff` field holds them ('' when equal). */
export function unifiedLineDiff(before: string, after: string, context = DIFF_CONTEXT_LINES): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = editScript(a, b);
  const rows: { op: Op; oldLine: number; newLine: number; text: string }[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops) {
    if (op === 'equal') rows.push({ op, oldLine: oldLine++, newLine: newLine++, text: b[newLine - 2]! });
    else if (op === 'delete') rows.push({ op, oldLine: oldLine++, newLine, text: a[oldLine - 2]! });
    else rows.push({ op, oldLine, newLine: newLine++, text: b[newLine - 2]! });
  }
  const changed = rows.map((row, index) => (row.op === 'equal' ? -1 : index)).filter((index) => index !== -1);
  if (changed.length === 0) return '';

  let out = '';
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i]! - context);
    let end = changed[i]!;
    // Extend while the next change is close enough for the contexts to touch.
    while (i + 1 < changed.length && changed[i + 1]! - end <= 2 * context) end = changed[++i]!;
    end = Math.min(rows.length - 1, end + context);
    i++;
    const slice = rows.slice(start, end + 1);
    const oldCount = slice.filter((row) => row.op !== 'insert').length;
    const newCount = slice.filter((row) => row.op !== 'delete').length;
    out += `@@ -${range(slice[0]!.oldLine, oldCount)} +${range(slice[0]!.newLine, newCount)} @@\n`;
    for (const row of slice) out += `${row.op === 'equal' ? ' ' : row.op === 'delete' ? '-' : '+'}${row.text}\n`;
  }
  return out;
}
