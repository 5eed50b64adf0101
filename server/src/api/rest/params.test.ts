import { describe, expect, it } from 'vitest';
import { keyPath, mergeParams, nestPairs, optionalBool, optionalInt, parseQueryString } from './params.js';

describe('bracket parameters', () => {
  it('splits bracket keys', () => {
    expect(keyPath('position[line_range][start][line_code]')).toEqual(['position', 'line_range', 'start', 'line_code']);
    expect(keyPath('scopes[]')).toEqual(['scopes', '']);
    expect(keyPath('plain')).toEqual(['plain']);
  });

  it('nests arrays, indexed arrays of hashes and hashes as Grape does', () => {
    expect(parseQueryString('scopes[]=api&scopes[]=read_api&actions[0][action]=create&actions[0][file_path]=a&actions[1][action]=delete&not[labels]=x')).toEqual({
      scopes: ['api', 'read_api'],
      actions: [{ action: 'create', file_path: 'a' }, { action: 'delete' }],
      not: { labels: 'x' },
    });
  });

  it('ignores prototype-polluting keys', () => {
    const parsed = nestPairs([['__proto__[admin]', 'true'], ['a[constructor][x]', '1']]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(parsed).toEqual({ a: {} });
  });

  it('refuses absurd array indexes', () => {
    expect(parseQueryString('a[99999999]=x')).toEqual({ a: [] });
  });

  it('merges query and body, body winning', () => {
    expect(mergeParams({ a: '1', b: '2' }, { b: '3' })).toEqual({ a: '1', b: '3' });
  });

  it('coerces booleans like Grape', () => {
    expect(optionalBool({ x: 'true' }, 'x')).toBe(true);
    expect(optionalBool({ x: '0' }, 'x')).toBe(false);
    expect(optionalBool({ x: null }, 'x')).toBe(false);
    expect(() => optionalBool({ x: 'maybe' }, 'x')).toThrow(/"x" is invalid/);
  });
});

describe('optionalInt (the one integer coercion, integerParam)', () => {
  it('takes digits and whole JSON numbers, and refuses 1e3 as Grape does', () => {
    expect(optionalInt({ x: '42' }, 'x')).toBe(42);
    expect(optionalInt({ x: 42 }, 'x')).toBe(42);
    expect(optionalInt({ x: '' }, 'x')).toBeUndefined();
    for (const bad of ['1e3', '0x10', '1.5', 1e20]) expect(() => optionalInt({ x: bad }, 'x')).toThrow('400 (Bad request) "x" is invalid');
  });
});
