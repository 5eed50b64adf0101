import { describe, expect, it } from 'vitest';
import { keysetLink, keysetTreePage } from './tree-pages.js';

const entries = ['a', 'b', 'c', 'd', 'e'].map((path) => ({ path }));

describe('keysetTreePage', () => {
  it('walks the tree by the last path seen', () => {
    expect(keysetTreePage(entries, undefined, 2)).toEqual({ items: [{ path: 'a' }, { path: 'b' }], nextToken: 'b' });
    expect(keysetTreePage(entries, 'b', 2)).toEqual({ items: [{ path: 'c' }, { path: 'd' }], nextToken: 'd' });
    expect(keysetTreePage(entries, 'd', 2)).toEqual({ items: [{ path: 'e' }], nextToken: null });
    expect(keysetTreePage(entries, 'zzz', 2)).toEqual({ items: [], nextToken: null });
  });
  it('links the next page in the format gitbeaker follows', () => {
    expect(keysetLink(new URL('http://h/api/v4/projects/1/repository/tree?pagination=keyset&per_page=2'), 2, 'dir/b c')).toBe(
      '<http://h/api/v4/projects/1/repository/tree?pagination=keyset&per_page=2&page_token=dir%2Fb+c>; rel="next"',
    );
  });
});
