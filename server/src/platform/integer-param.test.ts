import { describe, expect, it } from 'vitest';
import { integerParam } from './integer-param.js';

describe('integerParam (Grape Integer: digits with an optional sign)', () => {
  it.each([
    [12, 12],
    ['12', 12],
    [' 7 ', 7],
    ['-3', -3],
    ['+3', 3],
    ['1e3', Number.NaN],
    [1e20, Number.NaN],
    ['0x10', Number.NaN],
    ['1.5', Number.NaN],
    [1.5, Number.NaN],
    ['', Number.NaN],
    ['99999999999999999999', Number.NaN],
    [true, Number.NaN],
  ])('%j → %s', (value, expected) => {
    expect(integerParam(value)).toBe(expected);
  });
});
