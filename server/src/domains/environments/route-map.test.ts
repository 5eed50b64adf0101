import { describe, expect, it } from 'vitest';
import { changedPages, externalUrlFor, parseRouteMap, publicPathFor, ROUTE_MAP_ERRORS, type RouteMapEntry } from './route-map.js';

/** GitLab's own example route map (its documentation and specs). */
const SITE_MAP = String.raw`
# Team data
- source: 'data/team.yml'
  public: 'team/'

# Blogposts
- source: /source/posts/([0-9]{4})-([0-9]{2})-([0-9]{2})-(.+?)\..*/ # source/posts/2017-01-30-around-the-world-in-6-releases.html.md.erb
  public: '\1/\2/\3/\4/' # 2017/01/30/around-the-world-in-6-releases/

# HTML files
- source: /source\/(.+?\.html).*/ # source/index.html.haml
  public: '\1' # index.html

# Other files
- source: /source/(.*)/ # source/images/blogimages/cover.png
  public: '\1' # images/blogimages/cover.png
`;

function entriesOf(text: string): RouteMapEntry[] {
  const result = parseRouteMap(text);
  if (!result.ok) throw new Error(result.error);
  return result.entries;
}

describe('parseRouteMap: GitLab’s format errors', () => {
  it.each([
    ['"', ROUTE_MAP_ERRORS.yaml],
    ['foo', ROUTE_MAP_ERRORS.array],
    ['source: a', ROUTE_MAP_ERRORS.array],
    ['- foo', ROUTE_MAP_ERRORS.hash],
    ['- public: index.html', ROUTE_MAP_ERRORS.source],
    ['- source: /index\\.html/', ROUTE_MAP_ERRORS.public],
    ['- source: /[/\n  public: index.html', ROUTE_MAP_ERRORS.regexp],
  ])('%j → %s', (text, error) => {
    const result = parseRouteMap(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.startsWith(error)).toBe(true);
  });

  it('accepts an empty list', () => {
    expect(parseRouteMap('[]')).toEqual({ ok: true, entries: [] });
  });
});

describe('publicPathFor: the first matching entry, its groups substituted', () => {
  const entries = entriesOf(SITE_MAP);
  it.each([
    ['data/team.yml', 'team/'],
    ['source/posts/2017-01-30-around-the-world-in-6-releases.html.md.erb', '2017/01/30/around-the-world-in-6-releases/'],
    ['source/index.html.haml', 'index.html'],
    ['source/images/blogimages/cover.png', 'images/blogimages/cover.png'],
    ['.gitlab/route-map.yml', null],
    // a literal source is compared for equality, never as a pattern or a prefix
    ['data/team.yml.bak', null],
    ['xdata/team.yml', null],
    // a regexp source is anchored at both ends
    ['docs/source/index.html', null],
  ])('%s → %s', (path, publicPath) => {
    expect(publicPathFor(entries, path)).toBe(publicPath);
  });

  it('replaces \\0 by the whole match and a missing group by nothing; a literal’s dots are not wildcards', () => {
    const map = entriesOf(String.raw`
- source: /(a)|(b)\.md/
  public: '\0-\1-\2-\3'
- source: index.haml
  public: index.html
`);
    expect(publicPathFor(map, 'b.md')).toBe('b.md--b-');
    expect(publicPathFor(map, 'index.haml')).toBe('index.html');
    expect(publicPathFor(map, 'indexXhaml')).toBeNull();
  });
});

describe('changedPages: the deployment’s changes', () => {
  const entries = entriesOf(SITE_MAP);
  it('lists pages (no extension or a page’s) with links under the external url, in the diff’s order', () => {
    expect(changedPages(entries, ['source/index.html.haml', 'data/team.yml', 'source/images/blogimages/cover.png', 'README.md', 'source/about.PHP'], 'https://review-feature.example.com/')).toEqual([
      { path: 'index.html', external_url: 'https://review-feature.example.com/index.html' },
      { path: 'team/', external_url: 'https://review-feature.example.com/team/' },
      // images are not pages; README.md is not mapped
      { path: 'about.PHP', external_url: 'https://review-feature.example.com/about.PHP' },
    ]);
  });

  it('has no links without an external url', () => {
    expect(changedPages(entries, ['data/team.yml'], null)).toEqual([{ path: 'team/', external_url: null }]);
  });

  it.each([
    ['https://a.example', 'index.html', 'https://a.example/index.html'],
    ['https://a.example/', '/index.html', 'https://a.example/index.html'],
    ['https://a.example/base', 'blog/', 'https://a.example/base/blog/'],
  ])('externalUrlFor(%s, %s) → %s', (url, path, joined) => {
    expect(externalUrlFor(url, path)).toBe(joined);
  });
});
