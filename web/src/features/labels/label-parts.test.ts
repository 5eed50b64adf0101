import { describe, expect, it } from 'vitest';
import { labelParts, labelReference, safeColor } from './label-parts';

describe('labelParts', () => {
  it.each([
    ['bug', { key: 'bug', value: null }],
    ['priority::high', { key: 'priority', value: 'high' }],
    ['a::b::c', { key: 'a::b', value: 'c' }],
    ['::x', { key: '::x', value: null }],
    ['x::', { key: 'x::', value: null }],
  ])('%s', (name, parts) => expect(labelParts(name)).toEqual(parts));
});

describe('safeColor', () => {
  it.each([
    ['#abc', '#abc'],
    ['#A1B2C3', '#A1B2C3'],
    ['red', '#6699cc'],
    ['#abcd', '#6699cc'],
    [undefined, '#6699cc'],
    ['#fff;background:url(x)', '#6699cc'],
  ])('%s', (color, safe) => expect(safeColor(color)).toBe(safe));
});

it('writes label references', () => {
  expect(labelReference('bug')).toBe('~bug');
  expect(labelReference('needs review')).toBe('~"needs review"');
});
