/**
 * Pairs the rows of a unified diff for the side-by-side view: a context line shows on both
 * sides, a run of deletions is set against the run of additions that follows it, line by
 * line, and anything that is not a line of a file (hunk headers, expanders, notices) spans
 * both sides. Pure and generic over the row type, so expanded context rows pair like any other.
 */
export interface PairableRow {
  type: string;
}

export type SideBySideRow<T extends PairableRow> =
  | { kind: 'pair'; left: T | null; right: T | null }
  | { kind: 'full'; row: T };

export function pairRows<T extends PairableRow>(rows: readonly T[]): SideBySideRow<T>[] {
  const result: SideBySideRow<T>[] = [];
  let deletions: T[] = [];
  let additions: T[] = [];

  const flush = () => {
    const count = Math.max(deletions.length, additions.length);
    for (let i = 0; i < count; i++) result.push({ kind: 'pair', left: deletions[i] ?? null, right: additions[i] ?? null });
    deletions = [];
    additions = [];
  };

  for (const row of rows) {
    if (row.type === 'delete') {
      // A deletion after additions starts a new change block.
      if (additions.length > 0) flush();
      deletions.push(row);
    } else if (row.type === 'add') {
      additions.push(row);
    } else {
      flush();
      result.push(row.type === 'context' ? { kind: 'pair', left: row, right: row } : { kind: 'full', row });
    }
  }
  flush();
  return result;
}
