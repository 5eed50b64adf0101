import { describe, expect, it } from 'vitest';
import { keysetlessHeaders, paginationHeaders, parsePage } from './pagination.js';

describe('parsePage', () => {
  it.each([
    [{}, { page: 1, perPage: 20, offset: 0 }],
    [{ page: '3', per_page: '10' }, { page: 3, perPage: 10, offset: 20 }],
    [{ per_page: '500' }, { page: 1, perPage: 100, offset: 0 }],
    [{ page: '-1', per_page: 'abc' }, { page: 1, perPage: 20, offset: 0 }],
  ])('%j', (params, expected) => {
    expect(parsePage(params)).toMatchObject(expected);
  });
});

describe('paginationHeaders', () => {
  const url = new URL('http://h/api/v4/projects?search=x&page=2&per_page=10');

  it('emits GitLab headers and a Link gitbeaker can follow', () => {
    const headers = paginationHeaders(url, parsePage({ page: '2', per_page: '10' }), 35);
    expect(headers).toMatchObject({ 'x-total': '35', 'x-total-pages': '4', 'x-page': '2', 'x-per-page': '10', 'x-next-page': '3', 'x-prev-page': '1' });
    const links = [...headers.link!.matchAll(/<([^>]+)>; rel="([^"]+)"/g)].map((m) => [m[2], new URL(m[1]!).searchParams.get('page')]);
    expect(links).toEqual([['prev', '1'], ['next', '3'], ['first', '1'], ['last', '4']]);
    expect(headers.link).toContain('search=x');
  });

  it('has no next link on the last page, so clients stop', () => {
    const headers = paginationHeaders(url, parsePage({ page: '4', per_page: '10' }), 35);
    expect(headers['x-next-page']).toBe('');
    expect(headers.link).not.toContain('rel="next"');
  });

  it('treats an empty list as one page', () => {
    expect(paginationHeaders(url, parsePage({}), 0)).toMatchObject({ 'x-total': '0', 'x-total-pages': '1', 'x-next-page': '' });
  });

  it('omits totals for lists whose size is unknown', () => {
    const headers = keysetlessHeaders(url, parsePage({ page: '1' }), true);
    expect(headers['x-total']).toBeUndefined();
    expect(headers['x-next-page']).toBe('2');
    expect(headers.link).not.toContain('rel="last"');
  });
});
