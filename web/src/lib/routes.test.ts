import { describe, expect, it } from 'vitest';
import { parentDir, parseProjectPage, safeRedirectPath, splitAtDash, urls } from './routes';

describe('splitAtDash', () => {
  it('splits nested group paths from the sub-page', () => {
    expect(splitAtDash('/group/sub/proj/-/tree/main/src')).toEqual({
      fullPath: 'group/sub/proj',
      rest: ['tree', 'main', 'src'],
    });
  });

  it('has no rest without /-/', () => {
    expect(splitAtDash('/group/proj/')).toEqual({ fullPath: 'group/proj', rest: null });
  });

  it('decodes each segment', () => {
    expect(splitAtDash('/g/p/-/blob/main/docs/a%20b%23c.md')).toEqual({
      fullPath: 'g/p',
      rest: ['blob', 'main', 'docs', 'a b#c.md'],
    });
  });

  it('keeps a later "-" directory inside the file path', () => {
    expect(splitAtDash('/g/p/-/tree/main/-/x').rest).toEqual(['tree', 'main', '-', 'x']);
  });
});

describe('parseProjectPage', () => {
  it.each([
    [null, { kind: 'overview' }],
    [[], { kind: 'overview' }],
    [['tree', 'feature', 'x', 'src'], { kind: 'tree', refAndPath: 'feature/x/src' }],
    [['tree'], { kind: 'overview' }],
    [['blob', 'main', 'README.md'], { kind: 'blob', refAndPath: 'main/README.md' }],
    [['blob'], { kind: 'unknown' }],
    [['commits', 'main'], { kind: 'commits', refAndPath: 'main' }],
    [['commits'], { kind: 'commits', refAndPath: '' }],
    [['commit', 'abc123'], { kind: 'commit', sha: 'abc123' }],
    [['branches'], { kind: 'branches' }],
    [['project_members'], { kind: 'members' }],
    [['issues'], { kind: 'unknown' }],
  ] as const)('%j', (rest, expected) => {
    expect(parseProjectPage(rest === null ? null : [...rest])).toEqual(expected);
  });
});

describe('urls', () => {
  it('builds GitLab-shaped project URLs with encoded segments', () => {
    expect(urls.project('g/sub/p')).toBe('/g/sub/p');
    expect(urls.tree('g/p', 'feature/x', 'src/lib')).toBe('/g/p/-/tree/feature/x/src/lib');
    expect(urls.tree('g/p', 'main')).toBe('/g/p/-/tree/main');
    expect(urls.blob('g/p', 'main', 'docs/a b#c.md')).toBe('/g/p/-/blob/main/docs/a%20b%23c.md');
    expect(urls.commits('g/p', 'main', 'src')).toBe('/g/p/-/commits/main/src');
    expect(urls.commit('g/p', 'abc')).toBe('/g/p/-/commit/abc');
    expect(urls.branches('g/p')).toBe('/g/p/-/branches');
    expect(urls.projectMembers('g/p')).toBe('/g/p/-/project_members');
    expect(urls.groupMembers('g/sub')).toBe('/groups/g/sub/-/group_members');
    expect(urls.signIn('/g/p')).toBe('/users/sign_in?redirect=%2Fg%2Fp');
    expect(urls.signIn('/')).toBe('/users/sign_in');
  });

  it('round-trips through splitAtDash and parseProjectPage', () => {
    const url = urls.blob('g/p', 'feature/x', 'a b/c#d.ts');
    const { fullPath, rest } = splitAtDash(url);
    expect(fullPath).toBe('g/p');
    expect(parseProjectPage(rest)).toEqual({ kind: 'blob', refAndPath: 'feature/x/a b/c#d.ts' });
  });
});

describe('safeRedirectPath', () => {
  it.each([
    ['/g/p', '/g/p'],
    [null, '/'],
    ['', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['/users/sign_in', '/'],
  ])('%s → %s', (input, expected) => expect(safeRedirectPath(input)).toBe(expected));
});

describe('parentDir', () => {
  it.each([
    ['a/b/c', 'a/b'],
    ['a', ''],
    ['', ''],
  ])('%s → %s', (input, expected) => expect(parentDir(input)).toBe(expected));
});
