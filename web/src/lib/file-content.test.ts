import { describe, expect, it } from 'vitest';
import { MAX_RENDERED_FILE_BYTES, classifyFile, decodeBase64, decodeText, extensionOf, formatBytes, languageForFile, splitLines } from './file-content';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const file = (file_name: string, content: string, size = Buffer.from(content, 'base64').length) => ({
  file_name,
  size,
  encoding: 'base64',
  content,
});

describe('classifyFile', () => {
  it('decodes UTF-8 text', () => {
    expect(classifyFile(file('a.ts', b64('const é = 1;\n')))).toEqual({ kind: 'text', text: 'const é = 1;\n' });
  });

  it('detects binary content by NUL bytes and invalid UTF-8', () => {
    expect(classifyFile(file('a.bin', Buffer.from([1, 0, 2]).toString('base64')))).toEqual({ kind: 'binary' });
    expect(classifyFile(file('a.dat', Buffer.from([0xff, 0xfe, 0x41]).toString('base64')))).toEqual({ kind: 'binary' });
  });

  it('shows images by extension, refuses large files and notes empty ones', () => {
    expect(classifyFile(file('logo.PNG', 'AAAA'))).toEqual({ kind: 'image' });
    expect(classifyFile(file('big.txt', '', MAX_RENDERED_FILE_BYTES + 1))).toEqual({
      kind: 'too-large',
      size: MAX_RENDERED_FILE_BYTES + 1,
    });
    expect(classifyFile(file('empty.txt', '', 0))).toEqual({ kind: 'empty' });
  });

  it('passes text-encoded content through', () => {
    expect(classifyFile({ file_name: 'a', size: 2, encoding: 'text', content: 'hi' })).toEqual({ kind: 'text', text: 'hi' });
  });
});

describe('decode helpers', () => {
  it('decodes base64 with line breaks', () => {
    expect(decodeText(decodeBase64(`${b64('hello ')}\n`))).toBe('hello ');
  });
});

describe('extensionOf / languageForFile', () => {
  it.each([
    ['src/app.tsx', 'tsx', 'typescript'],
    ['Dockerfile', '', 'dockerfile'],
    ['.gitlab-ci.yml', 'yml', 'yaml'],
    ['.gitignore', '', null],
    ['notes.unknown', 'unknown', null],
    ['dir.v2/Makefile', '', 'makefile'],
  ])('%s', (name, ext, language) => {
    expect(extensionOf(name)).toBe(ext);
    expect(languageForFile(name)).toBe(language);
  });
});

describe('formatBytes', () => {
  it.each([
    [1, '1 byte'],
    [12, '12 bytes'],
    [1536, '1.5 KiB'],
    [20 * 1024, '20 KiB'],
    [3 * 1024 * 1024, '3 MiB'],
  ])('%d → %s', (size, expected) => expect(formatBytes(size)).toBe(expected));
});

describe('splitLines', () => {
  it('numbers lines as a diff does: no line for the final newline, none for an empty text', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });
});
