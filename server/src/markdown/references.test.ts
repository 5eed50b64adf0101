import { describe, expect, it } from 'vitest';
import { scanReferences } from './references.js';

const raws = (text: string) => scanReferences(text).map((reference) => reference.raw);

describe('scanReferences', () => {
  it('finds mentions, local and cross-project merge requests', () => {
    expect(scanReferences('cc @alice, see !12 and group/sub/app!3.')).toEqual([
      { kind: 'user', start: 3, end: 9, raw: '@alice', username: 'alice' },
      { kind: 'merge_request', start: 15, end: 18, raw: '!12', projectPath: null, iid: 12 },
      { kind: 'merge_request', start: 23, end: 38, raw: 'group/sub/app!3', projectPath: 'group/sub/app', iid: 3 },
    ]);
  });

  it('keeps e-mail addresses, words with bangs and trailing dots out', () => {
    expect(raws('mail bob@example.com now')).toEqual([]);
    expect(raws('wow!1 and hey!')).toEqual([]);
    expect(raws('thanks @bob.')).toEqual(['@bob']);
    expect(raws('!0 and !12a')).toEqual([]);
  });

  it('needs a path of at least two segments for cross-project references', () => {
    expect(scanReferences('project!4')).toEqual([]);
    expect(scanReferences('(a/b!4)')).toEqual([{ kind: 'merge_request', start: 1, end: 6, raw: 'a/b!4', projectPath: 'a/b', iid: 4 }]);
  });

  it('stops at 200 references', () => {
    expect(scanReferences('!1 '.repeat(300))).toHaveLength(200);
  });

  it('scans a long text without catastrophic backtracking', () => {
    const text = `${'a/'.repeat(20_000)}x`;
    const started = performance.now();
    scanReferences(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('label and milestone references', () => {
  it.each([
    ['~bug', { kind: 'label', id: null, name: 'bug', projectPath: null }],
    ['~"needs review"', { kind: 'label', id: null, name: 'needs review', projectPath: null }],
    ['~"priority::high"', { kind: 'label', id: null, name: 'priority::high', projectPath: null }],
    ['~12', { kind: 'label', id: 12, name: null, projectPath: null }],
    ['group/app~bug', { kind: 'label', id: null, name: 'bug', projectPath: 'group/app' }],
    ['%3', { kind: 'milestone', iid: 3, name: null, projectPath: null }],
    ['%v1.0', { kind: 'milestone', iid: null, name: 'v1.0', projectPath: null }],
    ['%"Release 1"', { kind: 'milestone', iid: null, name: 'Release 1', projectPath: null }],
    ['group/app%2', { kind: 'milestone', iid: 2, name: null, projectPath: 'group/app' }],
  ])('%s', (text, expected) => expect(scanReferences(`see ${text}.`)).toEqual([expect.objectContaining({ ...expected, raw: text })]));

  it('leaves percentages, home paths, words and lone signs alone', () => {
    expect(raws('50% done, ~/bin, a~b, x%y, ~ and % alone, ~"unclosed')).toEqual([]);
  });

  it('finds every kind in one text', () => {
    expect(raws('@bob: !1 ~bug %v2 ~"a b"')).toEqual(['@bob', '!1', '~bug', '%v2', '~"a b"']);
  });
});
