import { describe, expect, it } from 'vitest';
import { InvalidTreePathError } from '../../git/errors.js';
import { ValidationError } from '../../platform/errors.js';
import { assertFilePath, decodeContent, fileName, rawContentType } from './file-rules.js';

describe('decodeContent', () => {
  it('reads text as UTF-8 and base64 strictly', () => {
    expect(decodeContent('héllo', 'text').toString('utf8')).toBe('héllo');
    expect(decodeContent('aGk=\n', 'base64').toString()).toBe('hi');
    expect(() => decodeContent('not base64!', 'base64')).toThrow(ValidationError);
  });
});

describe('rawContentType', () => {
  it.each([
    ['<html><script>alert(1)</script></html>', 'text/plain; charset=utf-8'],
    ['plain text\n', 'text/plain; charset=utf-8'],
    [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 'application/octet-stream'],
    [Buffer.from([0xff, 0xfe, 0x41]), 'application/octet-stream'],
  ])('%s → %s', (content, type) => {
    expect(rawContentType(Buffer.isBuffer(content) ? content : Buffer.from(content))).toBe(type);
  });
});

describe('assertFilePath', () => {
  it.each(['../etc/passwd', 'a/../../b', '/etc/passwd', '.git/config', 'a/.GIT/hooks/x', '.git./HEAD', 'a\0b', 'a//b', './a', ''])('refuses %j', (path) => {
    expect(() => assertFilePath(path)).toThrow(InvalidTreePathError);
  });
  it.each(['README.md', 'dir/sub/file.txt', '--output=x', 'a b/ünï.txt', '.gitignore', '.github/workflows/x.yml'])('accepts %j', (path) => {
    expect(assertFilePath(path)).toBe(path);
  });
  it('names the last segment', () => {
    expect(fileName('a/b/c.txt')).toBe('c.txt');
    expect(fileName('c.txt')).toBe('c.txt');
  });
});
