import { describe, expect, it } from 'vitest';
import { parseLogContentRange } from './content-range.js';

describe('parseLogContentRange', () => {
  it.each([
    ['0-99', { start: 0, end: 99 }],
    ['100-100', { start: 100, end: 100 }],
    ['bytes 5-9/10', { start: 5, end: 9 }],
    ['bytes=5-9', { start: 5, end: 9 }],
    ['9-5', null],
    ['-5', null],
    ['a-b', null],
    ['', null],
    [undefined, null],
  ])('%s', (header, expected) => {
    expect(parseLogContentRange(header)).toEqual(expected);
  });
});
