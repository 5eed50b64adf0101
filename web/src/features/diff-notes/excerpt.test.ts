import { describe, expect, it } from 'vitest';
import { excerptLines } from './excerpt';

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const point = (old_line: number | null, new_line: number | null) => ({ line_code: null, type: null, old_line, new_line });

describe('excerptLines', () => {
  it('shows three lines above the commented one, which is marked', () => {
    expect(excerptLines(lines, { old_line: null, new_line: 10, line_range: null }).map((line) => [line.number, line.commented])).toEqual([
      [7, false],
      [8, false],
      [9, false],
      [10, true],
    ]);
  });

  it('stops at the top of the file', () => {
    expect(excerptLines(lines, { old_line: null, new_line: 2, line_range: null }).map((line) => line.number)).toEqual([1, 2]);
  });

  it('marks every line of a range, and the context above it', () => {
    const excerpt = excerptLines(lines, { old_line: null, new_line: 6, line_range: { start: point(null, 4), end: point(null, 6) } });
    expect(excerpt.map((line) => [line.number, line.commented])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
      [5, true],
      [6, true],
    ]);
  });

  it('shows a removed line by its old number and keeps a long range to its end', () => {
    expect(excerptLines(lines, { old_line: 5, new_line: null, line_range: null }).at(-1)).toEqual({ number: 5, text: 'line 5', commented: true });
    expect(excerptLines(lines, { old_line: null, new_line: 20, line_range: { start: point(null, 1), end: point(null, 20) } })).toHaveLength(10);
  });
});
