import { describe, expect, it } from 'vitest';
import { resolveRepositoryUrl } from './relative-links.js';

const root = { projectPath: 'g/p', ref: 'main', dir: '' };
const docs = { projectPath: 'g/p', ref: 'feature/x', dir: 'docs/guide' };

describe('resolveRepositoryUrl (GitLab\'s relative links in repository files)', () => {
  it.each([
    ['CONTRIBUTING.md', 'link', root, '/g/p/-/blob/main/CONTRIBUTING.md'],
    ['./docs/setup.md#install', 'link', root, '/g/p/-/blob/main/docs/setup.md#install'],
    ['docs/', 'link', root, '/g/p/-/tree/main/docs'],
    ['images/logo.png', 'image', root, '/g/p/-/raw/main/images/logo.png'],
    ['../api.md', 'link', docs, '/g/p/-/blob/feature/x/docs/api.md'],
    ['/README.md', 'link', docs, '/g/p/-/blob/feature/x/README.md'],
    ['../../../../escape.md', 'link', docs, '/g/p/-/blob/feature/x/escape.md'],
    ['a b.md?plain=1', 'link', root, '/g/p/-/blob/main/a%20b.md?plain=1'],
    ['img/a%20b.png', 'image', root, '/g/p/-/raw/main/img/a%20b.png'],
    ['..', 'link', root, '/g/p/-/tree/main'],
  ] as const)('%s (%s) → %s', (url, kind, context, expected) => {
    expect(resolveRepositoryUrl(url, kind, context)).toBe(expected);
  });

  it.each(['https://example.com/a.png', 'mailto:a@example.com', '//cdn.example.com/x.png', '#section', '', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', '/uploads/0123456789abcdef0123456789abcdef/a.png', '\\\\evil'])(
    'leaves %j alone',
    (url) => {
      expect(resolveRepositoryUrl(url, 'link', root)).toBeNull();
      expect(resolveRepositoryUrl(url, 'image', root)).toBeNull();
    },
  );
});
