import { describe, expect, it } from 'vitest';
import { parseSuggestions, splitSuggestions, suggestionTemplate } from './suggestions.js';

describe('parseSuggestions', () => {
  it('reads a plain suggestion fence as -0+0', () => {
    expect(parseSuggestions('Try this:\n```suggestion\nconst a = 1;\n```\n')).toEqual([{ above: 0, below: 0, text: 'const a = 1;' }]);
  });

  it('reads the line context of -N+M, -N and +M', () => {
    const body = '```suggestion:-2+1\na\nb\n```\n```suggestion:-3\nc\n```\n~~~suggestion:+4\nd\n~~~';
    expect(parseSuggestions(body)).toEqual([
      { above: 2, below: 1, text: 'a\nb' },
      { above: 3, below: 0, text: 'c' },
      { above: 0, below: 4, text: 'd' },
    ]);
  });

  it('treats an unreadable context as -0+0, as GitLab does', () => {
    expect(parseSuggestions('```suggestion:abc\nx\n```')).toEqual([{ above: 0, below: 0, text: 'x' }]);
  });

  it('keeps an empty suggestion (it deletes the lines) and blank lines inside one', () => {
    expect(parseSuggestions('```suggestion\n```')).toEqual([{ above: 0, below: 0, text: '' }]);
    expect(parseSuggestions('```suggestion\na\n\nb\n```')[0]!.text).toBe('a\n\nb');
  });

  it('ignores other languages, including a suggestion shown inside a longer fence', () => {
    expect(parseSuggestions('```js\nx\n```')).toEqual([]);
    expect(parseSuggestions('````markdown\n```suggestion\nx\n```\n````')).toEqual([]);
    expect(parseSuggestions('```suggestions\nx\n```')).toEqual([]);
  });

  it('closes only on a fence of the same character at least as long', () => {
    expect(parseSuggestions('````suggestion\na\n```\nb\n````')).toEqual([{ above: 0, below: 0, text: 'a\n```\nb' }]);
    expect(parseSuggestions('~~~suggestion\na\n```\n~~~')[0]!.text).toBe('a\n```');
  });

  it('runs an unclosed fence to the end and normalises CRLF', () => {
    expect(parseSuggestions('```suggestion\r\na\r\nb')).toEqual([{ above: 0, below: 0, text: 'a\nb' }]);
  });

  it('removes the opening fence indentation from the content', () => {
    expect(parseSuggestions('  ```suggestion\n    x\n  y\n  ```')[0]!.text).toBe('  x\ny');
  });
});

describe('splitSuggestions', () => {
  it('cuts the body into Markdown and suggestions in order', () => {
    const segments = splitSuggestions('Before\n```suggestion:-1+0\nnew\n```\nAfter');
    expect(segments).toEqual([
      { kind: 'markdown', text: 'Before' },
      { kind: 'suggestion', index: 0, above: 1, below: 0, text: 'new' },
      { kind: 'markdown', text: 'After' },
    ]);
  });
});

describe('suggestionTemplate', () => {
  it('wraps the lines in a suggestion fence, longer when the lines hold backticks', () => {
    expect(suggestionTemplate('a\nb', 1, 0)).toBe('```suggestion:-1+0\na\nb\n```');
    expect(suggestionTemplate('x ``` y')).toBe('````suggestion:-0+0\nx ``` y\n````');
    expect(parseSuggestions(suggestionTemplate('x ``` y'))[0]!.text).toBe('x ``` y');
  });
});
