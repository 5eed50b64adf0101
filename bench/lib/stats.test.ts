import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats.js';

describe('percentile (nearest rank)', () => {
  it.each([
    [[5, 1, 4, 2, 3], 75, 4],
    [[5, 1, 4, 2, 3], 100, 5],
    [[5, 1, 4, 2, 3], 50, 3],
    [[3, 1, 2], 75, 3],
    [[7], 75, 7],
  ])('%j at p%i is %i', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('refuses no values and percentiles out of range', () => {
    expect(() => percentile([], 75)).toThrow('no values');
    expect(() => percentile([1], 0)).toThrow('out of range');
    expect(() => percentile([1], 101)).toThrow('out of range');
  });

  it('agrees with the median at p50 for an odd count', () => {
    expect(percentile([9, 1, 5], 50)).toBe(median([9, 1, 5]));
  });
});
