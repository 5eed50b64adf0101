import { describe, expect, it } from 'vitest';
import { dropTrailingEmptyLine, escapeHtml, splitHighlightedLines } from './highlight-lines';

describe('splitHighlightedLines', () => {
  it('splits plain lines', () => {
    expect(splitHighlightedLines('a\nb\n')).toEqual(['a', 'b', '']);
  });

  it('closes and reopens spans that cross line breaks', () => {
    const html = 'x = <span class="hljs-comment">/* one\ntwo */</span> y';
    expect(splitHighlightedLines(html)).toEqual([
      'x = <span class="hljs-comment">/* one</span>',
      '<span class="hljs-comment">two */</span> y',
    ]);
  });

  it('handles nested spans', () => {
    const html = '<span class="a"><span class="b">1\n2</span>3\n4</span>';
    expect(splitHighlightedLines(html)).toEqual([
      '<span class="a"><span class="b">1</span></span>',
      '<span class="a"><span class="b">2</span>3</span>',
      '<span class="a">4</span>',
    ]);
  });

  it('keeps escaped entities intact', () => {
    expect(splitHighlightedLines('a &lt; b\n&amp;')).toEqual(['a &lt; b', '&amp;']);
  });
});

describe('escapeHtml', () => {
  it('escapes markup', () => expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'));
});

describe('dropTrailingEmptyLine', () => {
  it.each([
    [['a', ''], ['a']],
    [[''], ['']],
    [['a', 'b'], ['a', 'b']],
  ])('%j', (input, expected) => expect(dropTrailingEmptyLine(input)).toEqual(expected));
});
