import { describe, expect, it } from 'vitest';
import { oldPathCandidates } from './old-path-redirects.js';

describe('oldPathCandidates', () => {
  it.each([
    ['/old/project', false, ['old', 'old/project'], 1, '/project'],
    ['/old/project/-/merge_requests/1?tab=diffs', false, ['old', 'old/project'], 2, '/-/merge_requests/1?tab=diffs'],
    ['/groups/old/sub/-/settings', true, ['old', 'old/sub'], 1, '/sub/-/settings'],
    ['/a/b/c/', false, ['a', 'a/b', 'a/b/c'], 3, ''],
  ])('%s', (url, group, paths, segments, rest) => {
    const candidates = oldPathCandidates(url)!;
    expect(candidates.group).toBe(group);
    expect(candidates.paths).toEqual(paths);
    expect(candidates.rest(segments)).toBe(rest);
  });

  it.each(['/', '/-/profile', '/a/../b', '/%E0%A4%A/x'])('%s has no candidates', (url) => {
    expect(oldPathCandidates(url)).toBeUndefined();
  });
});
