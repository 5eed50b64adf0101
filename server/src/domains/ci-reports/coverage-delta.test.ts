import { describe, expect, it } from 'vitest';
import { coverageDelta } from './coverage-delta.js';

describe('coverageDelta (GitLab’s pipeline_coverage_delta)', () => {
  it.each([
    [80, 75.5, '4.50'],
    [70.25, 75.5, '-5.25'],
    [75.5, 75.5, '0.00'],
    [75.4999, 75.5, '0.00'],
    [100, 0, '100.00'],
    [null, 75.5, null],
    [80, null, null],
    [null, null, null],
  ])('head %s, base %s → %s', (head, base, expected) => {
    expect(coverageDelta(head, base)).toBe(expected);
  });
});
