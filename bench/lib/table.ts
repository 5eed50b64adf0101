/**
 * The results table: one row per measured figure, always beside the baseline
 * measured in the same run and the ratio between them.
 */

export type Verdict = 'pass' | 'FAIL' | 'info' | 'ERROR';

export interface Row {
  benchmark: string;
  tributary: string;
  baseline: string;
  ratio: string;
  target: string;
  verdict: Verdict;
}

const HEADERS: Record<keyof Row, string> = {
  benchmark: 'Benchmark',
  tributary: 'Tributary',
  baseline: 'Baseline (same run)',
  ratio: 'Ratio',
  target: 'Target',
  verdict: 'Result',
};

const COLUMNS = Object.keys(HEADERS) as (keyof Row)[];

/** A plain-text table for the terminal. */
export function renderText(rows: readonly Row[]): string {
  const cells = [COLUMNS.map((column) => HEADERS[column]), ...rows.map((row) => COLUMNS.map((column) => row[column]))];
  const widths = COLUMNS.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  const format = (line: string[]) => line.map((cell, index) => cell.padEnd(widths[index]!)).join('  ').trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  return [format(cells[0]!), rule, ...cells.slice(1).map(format)].join('\n');
}

function escapeMarkdown(cell: string): string {
  return cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The same table as GitHub-flavoured Markdown. */
export function renderMarkdown(rows: readonly Row[]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeMarkdown).join(' | ')} |`;
  return [line(COLUMNS.map((column) => HEADERS[column])), line(COLUMNS.map(() => '---')), ...rows.map((row) => line(COLUMNS.map((column) => row[column])))].join('\n');
}
