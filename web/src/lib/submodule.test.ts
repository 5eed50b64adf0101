import { describe, expect, it } from 'vitest';
import { parseDiffHunks } from './diff-hunks';
import { parseGitmodules, submoduleCompareUrl, submoduleShas, submoduleWebUrl } from './submodule';

describe('submoduleShas', () => {
  it('reads the old and new commit of a moved gitlink', () => {
    const parsed = parseDiffHunks('@@ -1 +1 @@\n-Subproject commit 1111111111111111111111111111111111111111\n+Subproject commit 2222222222222222222222222222222222222222\n');
    expect(submoduleShas(parsed)).toEqual({ oldSha: '1'.repeat(40), newSha: '2'.repeat(40) });
  });

  it('has no old commit for an added submodule', () => {
    expect(submoduleShas(parseDiffHunks('@@ -0,0 +1 @@\n+Subproject commit abcdef1\n'))).toEqual({ oldSha: null, newSha: 'abcdef1' });
  });
});

describe('parseGitmodules', () => {
  it('maps paths to URLs', () => {
    const text = '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://example.com/g/lib.git\n[submodule "x"]\n\turl = "git@example.com:g/x.git"\n\tpath = x\n';
    expect([...parseGitmodules(text)]).toEqual([
      ['vendor/lib', 'https://example.com/g/lib.git'],
      ['x', 'git@example.com:g/x.git'],
    ]);
  });
});

describe('submoduleWebUrl and submoduleCompareUrl', () => {
  it.each([
    ['https://example.com/g/lib.git', 'https://example.com/g/lib'],
    ['https://user:secret@example.com/g/lib/', 'https://example.com/g/lib'],
    ['git@example.com:g/lib.git', 'https://example.com/g/lib'],
    ['../lib.git', null],
    ['file:///srv/lib.git', null],
  ])('%s → %s', (url, web) => expect(submoduleWebUrl(url)).toBe(web));

  it('links a compare of both commits, or the tree of a new one', () => {
    expect(submoduleCompareUrl('https://h/g/lib', 'a1', 'b2')).toBe('https://h/g/lib/compare/a1...b2');
    expect(submoduleCompareUrl('https://h/g/lib', null, 'b2')).toBe('https://h/g/lib/tree/b2');
    expect(submoduleCompareUrl('https://h/g/lib', 'a1', null)).toBeNull();
  });
});
