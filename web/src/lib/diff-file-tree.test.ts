import { describe, expect, it } from 'vitest';
import { buildDiffTree, directoryPaths, filterTreeFiles, flattenTree, treeRowKey, type DiffTreeDir } from './diff-file-tree';

const file = (path: string, added = 1, removed = 0) => ({ id: path, path, added, removed });

describe('buildDiffTree', () => {
  const tree = buildDiffTree([file('src/lib/util/a.ts', 2, 1), file('README.md'), file('src/lib/util/b.ts', 3), file('src/main.ts'), file('docs/x/y/z.md')]);

  it('lists directories first, then files, by name', () => {
    expect(tree.map((node) => `${node.kind}:${node.name}`)).toEqual(['dir:docs/x/y', 'dir:src', 'file:README.md']);
  });

  it('compacts chains of single directories', () => {
    const src = tree[1] as DiffTreeDir;
    expect(src.children.map((node) => `${node.kind}:${node.name}`)).toEqual(['dir:lib/util', 'file:main.ts']);
    expect((src.children[0] as DiffTreeDir).path).toBe('src/lib/util');
  });

  it('sums files and lines per directory', () => {
    expect(tree[1]).toMatchObject({ fileCount: 3, added: 6, removed: 1 });
  });

  it('keeps files with the same path apart (a type change lists one path twice)', () => {
    const twice = buildDiffTree([{ id: 'a', path: 'link', added: 0, removed: 1 }, { id: 'b', path: 'link', added: 1, removed: 0 }]);
    expect(twice.map((node) => (node.kind === 'file' ? node.file.id : node.path))).toEqual(['a', 'b']);
  });

  it('names every directory', () => {
    expect(directoryPaths(tree)).toEqual(['docs/x/y', 'src', 'src/lib/util']);
  });
});

describe('filterTreeFiles', () => {
  const files = [file('src/App.tsx'), file('src/lib/api.ts'), file('docs/api.md')];

  it('matches every word anywhere in the path, ignoring case', () => {
    expect(filterTreeFiles(files, 'API').map((f) => f.path)).toEqual(['src/lib/api.ts', 'docs/api.md']);
    expect(filterTreeFiles(files, 'src api').map((f) => f.path)).toEqual(['src/lib/api.ts']);
  });

  it('returns everything for an empty query', () => {
    expect(filterTreeFiles(files, '  ')).toHaveLength(3);
  });
});

describe('flattenTree', () => {
  const tree = buildDiffTree([file('src/a.ts'), file('src/lib/b.ts'), file('README.md')]);

  it('lists expanded directories’ children with depth and position', () => {
    expect(flattenTree(tree, new Set()).map((row) => `${'  '.repeat(row.depth)}${row.node.name} ${row.position}/${row.siblings}`)).toEqual([
      'src 1/2',
      '  lib 1/2',
      '    b.ts 1/1',
      '  a.ts 2/2',
      'README.md 2/2',
    ]);
  });

  it('hides what is inside a collapsed directory', () => {
    expect(flattenTree(tree, new Set(['src'])).map((row) => treeRowKey(row.node))).toEqual(['dir:src', 'README.md']);
    expect(flattenTree(tree, new Set(['src/lib']))[2]?.parent).toBe('src');
  });
});
