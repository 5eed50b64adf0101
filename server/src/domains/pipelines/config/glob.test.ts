import { describe, expect, it } from 'vitest';

import { globMatches } from './glob.js';

describe('fnmatch as GitLab uses it for rules:changes and rules:exists', () => {
  it.each([
    ['Dockerfile', 'Dockerfile', true],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/README.md', false],
    ['**/*.md', 'docs/README.md', true],
    ['**/*.md', 'README.md', true],
    ['docs/**/*', 'docs/a/b/c.txt', true],
    ['docs/**', 'docs/a/b/c.txt', true],
    ['src/*', 'src/a/b.ts', false],
    ['*.{js,ts}', 'app.ts', true],
    ['*.{js,ts}', 'app.rb', false],
    ['file?.txt', 'file1.txt', true],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['*', '.gitlab-ci.yml', true],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(globMatches(pattern, path)).toBe(expected);
  });
});
