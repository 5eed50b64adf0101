import { describe, expect, it } from 'vitest';
import { nestFields, parseQueryString } from './query-string.js';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('parseQueryString', () => {
  it.each([
    ['a[]=x&a[]=y', { a: ['x', 'y'] }],
    ['a[]=', { a: [''] }],
    ['a[b]=1&a[c]=2', { a: { b: '1', c: '2' } }],
    ['filter[environment_scope]=*', { filter: { environment_scope: '*' } }],
    ['actions[0][action]=create&actions[0][file_path]=a&actions[1][action]=delete', { actions: [{ action: 'create', file_path: 'a' }, { action: 'delete' }] }],
    ['position[line_range][start][line_code]=abc_1_1', { position: { line_range: { start: { line_code: 'abc_1_1' } } } }],
    ['labels=a,b', { labels: 'a,b' }],
    ['title=a+b%20c', { title: 'a b c' }],
    ['a=1&a=2', { a: '2' }],
    ['?page=2', { page: '2' }],
    ['', {}],
  ])('%s', (query, expected) => {
    expect(plain(parseQueryString(query))).toEqual(expected);
  });

  it('drops __proto__, constructor and prototype keys at any depth and pollutes nothing', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&a[constructor]=x&a[ok]=1&prototype=1');
    expect(plain(parsed)).toEqual({ a: { ok: '1' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it('limits array indexes: an index past the limit makes a hash, not a sparse array of that length', () => {
    expect(plain(parseQueryString('a[100000]=x'))).toEqual({ a: { 100000: 'x' } });
  });

  it('limits nesting depth', () => {
    const parsed = plain(parseQueryString('a[b][c][d][e][f][g][h][i][j][k]=1'));
    expect(JSON.stringify(parsed).length).toBeLessThan(200);
  });
});

describe('nestFields', () => {
  it('nests multipart fields and keeps their values', () => {
    const file = Buffer.from('x');
    const nested = nestFields({ 'position[base_sha]': 'abc', 'position[new_line]': '3', file, constructor: 'x' });
    expect(nested.position).toEqual(Object.assign(Object.create(null), { base_sha: 'abc', new_line: '3' }));
    expect(nested.file).toBe(file);
    expect('constructor' in nested).toBe(false);
  });
});
