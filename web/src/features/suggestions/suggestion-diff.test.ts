import { describe, expect, it } from 'vitest';
import { commentedLines, fileLines, previewSegments, suggestionLines, toggleBatch } from './suggestion-diff';

describe('suggestionLines', () => {
  it('shows the current lines as removed and the suggested ones as added, numbered from the range start', () => {
    expect(suggestionLines({ from_line: 4, from_content: 'line 3\nline 4\n', to_content: 'merged\n' })).toEqual([
      { type: 'old', number: 4, text: 'line 3' },
      { type: 'old', number: 5, text: 'line 4' },
      { type: 'new', number: 4, text: 'merged' },
    ]);
  });

  it('keeps blank lines, and shows nothing added for a deletion', () => {
    expect(suggestionLines({ from_line: 1, from_content: 'a\r\n', to_content: 'b\n\nc\n' }).map((line) => line.text)).toEqual(['a', 'b', '', 'c']);
    expect(suggestionLines({ from_line: 2, from_content: 'x', to_content: '' })).toEqual([{ type: 'old', number: 2, text: 'x' }]);
  });
});

describe('the batch', () => {
  const a = { suggestionId: 1, discussionId: 'd1' };
  const b = { suggestionId: 2, discussionId: 'd2' };

  it('adds and removes a suggestion', () => {
    expect(toggleBatch([], a)).toEqual([a]);
    expect(toggleBatch([a, b], a)).toEqual([b]);
  });
});

describe('Insert suggestion', () => {
  it('takes the commented line, or the new side of a range, and nothing on a removed line', () => {
    expect(commentedLines({ new_line: 5, line_range: null })).toEqual({ start: 5, end: 5 });
    expect(commentedLines({ new_line: 7, line_range: { start: { new_line: 4 } } })).toEqual({ start: 4, end: 7 });
    expect(commentedLines({ new_line: 7, line_range: { start: { new_line: null } } })).toEqual({ start: 7, end: 7 });
    expect(commentedLines({ new_line: null })).toBeNull();
  });

  it('cuts the lines out of the file', () => {
    expect(fileLines('a\nb\r\nc\n', 2, 3)).toBe('b\nc');
  });
});

describe('previewSegments', () => {
  const file = 'one\ntwo\nthree\nfour\n';
  it('turns each suggestion into the change the posted note will show, the rest stays Markdown', () => {
    expect(previewSegments('Better:\n```suggestion:-1+0\nTWO\nTHREE\n```\nThanks', file, 3)).toEqual([
      { kind: 'markdown', text: 'Better:' },
      { kind: 'suggestion', suggestion: { from_line: 2, from_content: 'two\nthree\n', to_content: 'TWO\nTHREE\n' } },
      { kind: 'markdown', text: 'Thanks' },
    ]);
  });
  it('keeps other code blocks as Markdown and a blank suggestion deletes the line', () => {
    expect(previewSegments('```js\nx\n```', file, 1)).toEqual([{ kind: 'markdown', text: '```js\nx\n```' }]);
    expect(previewSegments('```suggestion\n```', file, 1)).toEqual([{ kind: 'suggestion', suggestion: { from_line: 1, from_content: 'one\n', to_content: '' } }]);
  });
});
