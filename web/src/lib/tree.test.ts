import { describe, expect, it } from 'vitest';
import type { TreeEntry } from './gitlab-types';
import { pathCrumbs, sortTreeEntries } from './tree';

const entry = (name: string, type: TreeEntry['type']): TreeEntry => ({ id: name, name, type, path: name, mode: '100644' });

describe('sortTreeEntries', () => {
  it('lists directories, then submodules, then files, by name', () => {
    const sorted = sortTreeEntries([entry('b.txt', 'blob'), entry('src', 'tree'), entry('A.md', 'blob'), entry('lib', 'commit'), entry('docs', 'tree')]);
    expect(sorted.map((e) => e.name)).toEqual(['docs', 'src', 'lib', 'A.md', 'b.txt']);
  });
});

describe('pathCrumbs', () => {
  it('builds cumulative paths', () => {
    expect(pathCrumbs('a/b/c')).toEqual([
      { name: 'a', path: 'a' },
      { name: 'b', path: 'a/b' },
      { name: 'c', path: 'a/b/c' },
    ]);
    expect(pathCrumbs('')).toEqual([]);
  });
});
