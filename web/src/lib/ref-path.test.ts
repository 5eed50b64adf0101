import { describe, expect, it } from 'vitest';
import { isAmbiguousRefPath, refSearchTerm, splitRefAndPath } from './ref-path';

const refs = ['main', 'feature', 'feature/login', 'feature/login/v2', 'v1.0', 'release/2024'];

describe('splitRefAndPath', () => {
  it.each([
    ['main', { ref: 'main', path: '' }],
    ['main/src/app.ts', { ref: 'main', path: 'src/app.ts' }],
    ['feature/login/src/app.ts', { ref: 'feature/login', path: 'src/app.ts' }],
    ['feature/login/v2/README.md', { ref: 'feature/login/v2', path: 'README.md' }],
    ['feature/other.txt', { ref: 'feature', path: 'other.txt' }],
    ['feature/login', { ref: 'feature/login', path: '' }],
    ['release/2024/', { ref: 'release/2024', path: '' }],
    ['v1.0/docs', { ref: 'v1.0', path: 'docs' }],
  ])('%s', (input, expected) => {
    expect(splitRefAndPath(input, refs)).toEqual(expected);
  });

  it('does not match a ref that is only a string prefix of a segment', () => {
    expect(splitRefAndPath('mainline/file', ['main'])).toEqual({ ref: 'mainline', path: 'file' });
  });

  it('falls back to the first segment for SHAs and unknown refs', () => {
    const sha = '0123456789abcdef0123456789abcdef01234567';
    expect(splitRefAndPath(`${sha}/lib/x.rb`, refs)).toEqual({ ref: sha, path: 'lib/x.rb' });
    expect(splitRefAndPath('nope/a/b', [])).toEqual({ ref: 'nope', path: 'a/b' });
  });
});

describe('isAmbiguousRefPath', () => {
  it.each([
    ['main', false],
    ['main/', false],
    ['main/src', true],
  ])('%s → %s', (input, expected) => expect(isAmbiguousRefPath(input)).toBe(expected));
});

describe('refSearchTerm', () => {
  it('is the first segment', () => {
    expect(refSearchTerm('feature/login/src')).toBe('feature');
    expect(refSearchTerm('main')).toBe('main');
  });
});
