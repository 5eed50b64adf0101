import { describe, expect, it } from 'vitest';
import { insertMarkdown } from './insert-markdown';

const md = '![a](/uploads/0123456789abcdef0123456789abcdef/a.png)';

describe('insertMarkdown', () => {
  it('inserts into an empty field', () => {
    expect(insertMarkdown('', 0, md)).toEqual({ value: md, caret: md.length });
  });

  it('separates it from the words around the caret', () => {
    expect(insertMarkdown('see here', 3, md).value).toBe(`see ${md} here`);
    expect(insertMarkdown('see ', 4, md).value).toBe(`see ${md}`);
    expect(insertMarkdown('line\n', 5, md).value).toBe(`line\n${md}`);
  });

  it('clamps a caret past the end (the text changed while uploading)', () => {
    const result = insertMarkdown('short', 99, md);
    expect(result.value).toBe(`short ${md}`);
    expect(result.caret).toBe(result.value.length);
  });
});
