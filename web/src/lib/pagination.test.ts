import { describe, expect, it } from 'vitest';
import { nextLink, pageFromSearch, parsePageInfo } from './pagination';

describe('parsePageInfo', () => {
  it('reads every GitLab pagination header', () => {
    const headers = new Headers({
      'X-Page': '2',
      'X-Per-Page': '20',
      'X-Total': '45',
      'X-Total-Pages': '3',
      'X-Next-Page': '3',
      'X-Prev-Page': '1',
    });
    expect(parsePageInfo(headers)).toEqual({
      page: 2,
      perPage: 20,
      total: 45,
      totalPages: 3,
      nextPage: 3,
      prevPage: 1,
    });
  });

  it('treats empty next/prev values on boundary pages as absent', () => {
    const headers = new Headers({ 'x-page': '1', 'x-next-page': '', 'x-prev-page': '', 'x-total': '3' });
    const info = parsePageInfo(headers);
    expect(info.nextPage).toBeNull();
    expect(info.prevPage).toBeNull();
    expect(info.total).toBe(3);
  });

  it('leaves totals unknown when GitLab omits them for large collections', () => {
    const info = parsePageInfo(new Headers({ 'x-next-page': '5' }), 4);
    expect(info).toMatchObject({ page: 4, total: null, totalPages: null, nextPage: 5 });
  });

  it('ignores malformed numbers', () => {
    const info = parsePageInfo(new Headers({ 'x-total': 'lots', 'x-next-page': '-1' }));
    expect(info.total).toBeNull();
    expect(info.nextPage).toBeNull();
  });
});

describe('pageFromSearch', () => {
  it.each([
    ['page=3', 3],
    ['', 1],
    ['page=0', 1],
    ['page=abc', 1],
    ['page=2.5', 1],
  ])('%s → %d', (search, expected) => {
    expect(pageFromSearch(new URLSearchParams(search))).toBe(expected);
  });
});

describe('nextLink', () => {
  it("reads the keyset page's next URL from the Link header as a same-origin path", () => {
    const header = '<http://tributary.test/api/v4/projects/1/merge_requests/2/discussions?pagination=keyset&per_page=100&cursor=abc>; rel="next"';
    expect(nextLink(header, 'http://tributary.test')).toBe('/api/v4/projects/1/merge_requests/2/discussions?pagination=keyset&per_page=100&cursor=abc');
  });
  it('finds rel=next among other relations, and nothing on the last page', () => {
    expect(nextLink('</a?page=1>; rel="first", </b?cursor=x>; rel="next"', 'http://h')).toBe('/b?cursor=x');
    expect(nextLink(null, 'http://h')).toBeNull();
    expect(nextLink('</a?page=1>; rel="first"', 'http://h')).toBeNull();
  });
});
