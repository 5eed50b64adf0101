import { describe, expect, it } from 'vitest';
import { nextLink } from './api';

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
