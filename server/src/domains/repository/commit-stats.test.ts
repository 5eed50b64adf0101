import { describe, expect, it } from 'vitest';
import { parseNumstat } from './commit-stats.js';

describe('parseNumstat', () => {
  it('sums `diff-tree -z --numstat` records, renames and binary files included', () => {
    // Literal git 2.39 output: a modified file, a rename (empty path, then old and new), a binary file.
    const output = '3\t1\tREADME.md\x002\t0\t\x00old name.txt\x00new\tname.txt\x00-\t-\tlogo.png\x00';
    expect(parseNumstat(output)).toEqual({ additions: 5, deletions: 1, total: 6 });
  });
  it('is zero for an empty diff', () => {
    expect(parseNumstat('')).toEqual({ additions: 0, deletions: 0, total: 0 });
  });
  it('does not read a renamed file whose name looks like a record', () => {
    expect(parseNumstat('1\t1\t\x009\t9\tfake\x00real\x00')).toEqual({ additions: 1, deletions: 1, total: 2 });
  });
});
