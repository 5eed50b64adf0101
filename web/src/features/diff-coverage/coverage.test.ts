import { describe, expect, it } from 'vitest';
import { coverageTitle, lineCoverage } from './coverage';

describe('lineCoverage', () => {
  const report = { files: { 'app/a.py': { '1': 3, '2': 0 } } };
  it.each([
    ['a line the tests ran', 'app/a.py', 1, { covered: true, hits: 3 }],
    ['a line they did not', 'app/a.py', 2, { covered: false }],
    ['a line not instrumented', 'app/a.py', 3, null],
    ['a file not in the report', 'b.py', 1, null],
    ['a deleted line (no new number)', 'app/a.py', undefined, null],
  ])('%s', (_name, path, line, expected) => {
    expect(lineCoverage(report, path, line)).toEqual(expected);
  });

  it('has no marks without a report, and GitLab’s tooltips', () => {
    expect(lineCoverage(undefined, 'app/a.py', 1)).toBeNull();
    expect(coverageTitle({ covered: true, hits: 3 })).toBe('Test coverage: 3 hits');
    expect(coverageTitle({ covered: false })).toBe('No test coverage');
  });
});
