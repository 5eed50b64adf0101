import { describe, expect, it } from 'vitest';
import { parseBlamePorcelain } from './blame.js';

describe('parseBlamePorcelain', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  it('groups consecutive lines of one commit and starts a new run when the commit changes', () => {
    const output = [
      `${a} 1 1 2`,
      'author Ann',
      'author-mail <ann@example.com>',
      'summary First',
      'filename f.txt',
      '\tline one',
      `${a} 2 2`,
      '\tline two',
      `${b} 3 3 1`,
      'author Bob',
      'summary Second',
      'filename f.txt',
      '\t\tindented line',
      `${a} 4 4 1`,
      '\tline four',
      '',
    ].join('\n');
    expect(parseBlamePorcelain(output)).toEqual([
      { commitId: a, lines: ['line one', 'line two'] },
      { commitId: b, lines: ['\tindented line'] },
      { commitId: a, lines: ['line four'] },
    ]);
  });
  it('reads an empty file as no runs', () => {
    expect(parseBlamePorcelain('')).toEqual([]);
  });
});
