import { describe, expect, it } from 'vitest';
import { DISCUSSIONS_PER_PAGE, FIRST_DISCUSSIONS_PER_PAGE, firstDiscussionsPageUrl, nextDiscussionsPageUrl } from './api';

describe('discussions pages', () => {
  it('asks a small first page, by project id or URL-encoded path', () => {
    expect(firstDiscussionsPageUrl(7, 3)).toBe(`/api/v4/projects/7/merge_requests/3/discussions?pagination=keyset&per_page=${FIRST_DISCUSSIONS_PER_PAGE}`);
    expect(firstDiscussionsPageUrl('group%2Fapp', 3)).toBe(`/api/v4/projects/group%2Fapp/merge_requests/3/discussions?pagination=keyset&per_page=${FIRST_DISCUSSIONS_PER_PAGE}`);
  });

  it('follows the Link header with full pages, keeping the cursor and the encoded path as they are', () => {
    const next = `/api/v4/projects/group%2Fapp/merge_requests/3/discussions?pagination=keyset&per_page=${FIRST_DISCUSSIONS_PER_PAGE}&cursor=eyJjIjoiMjAyNiJ9`;
    expect(nextDiscussionsPageUrl(next)).toBe(`/api/v4/projects/group%2Fapp/merge_requests/3/discussions?pagination=keyset&per_page=${DISCUSSIONS_PER_PAGE}&cursor=eyJjIjoiMjAyNiJ9`);
    expect(nextDiscussionsPageUrl(null)).toBeUndefined();
  });
});
