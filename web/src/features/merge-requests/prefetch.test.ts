import { describe, expect, it } from 'vitest';
import { mergeRequestPrefetch } from './prefetch';

describe('mergeRequestPrefetch', () => {
  it.each([
    ['/group/app/-/merge_requests/3', '', { fullPath: 'group/app', iid: 3, firstDiffs: false }],
    ['/group/app/-/merge_requests/3/diffs', '', { fullPath: 'group/app', iid: 3, firstDiffs: true }],
    ['/group/app/-/merge_requests/3/diffs', '?view=parallel', { fullPath: 'group/app', iid: 3, firstDiffs: true }],
    // an older version or a comparison asks other URLs than the first page of …/diffs
    ['/group/app/-/merge_requests/3/diffs', '?diff_id=7', { fullPath: 'group/app', iid: 3, firstDiffs: false }],
    ['/group/app/-/merge_requests/3/diffs', '?start_sha=abc', { fullPath: 'group/app', iid: 3, firstDiffs: false }],
  ])('%s%s loads at once %j', (pathname, search, expected) => {
    expect(mergeRequestPrefetch(pathname, search)).toEqual(expected);
  });

  it.each(['/group/app/-/merge_requests/3/commits', '/group/app/-/merge_requests/3/edit', '/group/app/-/merge_requests', '/group/app', '/'])(
    'prefetches nothing for %s',
    (pathname) => {
      expect(mergeRequestPrefetch(pathname, '')).toBeNull();
    },
  );
});
