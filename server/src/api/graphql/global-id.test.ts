import { describe, expect, it } from 'vitest';
import { mergeRequestGlobalId } from '@tributary/contracts';
import { globalId, parseGlobalId } from './global-id.js';

describe('global ids', () => {
  it('writes GitLab global ids, the same as the web contract', () => {
    expect(globalId('MergeRequest', 42)).toBe('gid://gitlab/MergeRequest/42');
    expect(globalId('MergeRequest', 42)).toBe(mergeRequestGlobalId(42));
  });

  it.each([
    ['gid://gitlab/MergeRequest/42', ['MergeRequest'], { type: 'MergeRequest', id: 42 }],
    ['gid://gitlab/Project/7', ['MergeRequest', 'Project'], { type: 'Project', id: 7 }],
    ['gid://gitlab/Project/7', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/0', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/-1', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/1e3', ['MergeRequest'], null],
    ['gid://gitlab/MergeRequest/99999999999999999999', ['MergeRequest'], null],
    ['gid://other/MergeRequest/1', ['MergeRequest'], null],
    [' gid://gitlab/MergeRequest/1', ['MergeRequest'], null],
    ['42', ['MergeRequest'], null],
    [42, ['MergeRequest'], null],
    [null, ['MergeRequest'], null],
  ] as const)('parses %j as %j', (value, types, expected) => {
    expect(parseGlobalId(value, types)).toEqual(expected);
  });
});
