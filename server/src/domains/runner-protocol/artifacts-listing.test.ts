import { describe, expect, it } from 'vitest';
import { artifactsDirectory } from './artifacts-listing.js';

const file = (path: string, size = 1) => ({ path, size, directory: false });
const dir = (path: string) => ({ path, size: 0, directory: true });

describe('artifactsDirectory', () => {
  const archive = [dir('dist'), file('dist/app.js', 10), file('dist/css/site.css', 5), file('README.md', 3), file('a/b/implied.txt', 7)];

  it.each([
    ['the root: directories first, then files, each by name', '', ['a/', 'dist/', 'README.md']],
    ['a stored directory', 'dist', ['css/', 'app.js']],
    ['a directory the archive only implies', 'a', ['b/']],
    ['a nested implied directory', 'a/b', ['implied.txt']],
  ])('%s', (_title, path, expected) => {
    const listing = artifactsDirectory(archive, path)!;
    expect(listing.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name))).toEqual(expected);
  });

  it('gives paths inside the archive and file sizes', () => {
    expect(artifactsDirectory(archive, 'dist')).toEqual([
      { name: 'css', path: 'dist/css', type: 'directory', size: null },
      { name: 'app.js', path: 'dist/app.js', type: 'file', size: 10 },
    ]);
  });

  it.each([['a missing directory', 'nope'], ['a file, not a directory', 'README.md'], ['a prefix of a name', 'dis']])('%s is null', (_title, path) => {
    expect(artifactsDirectory(archive, path)).toBeNull();
  });

  it('lists an empty root of an empty archive', () => {
    expect(artifactsDirectory([], '')).toEqual([]);
  });
});
