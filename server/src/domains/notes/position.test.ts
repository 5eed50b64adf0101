import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { lineCode, parsePosition, positionForApi } from './position.js';

const BASE = 'a'.repeat(40);
const START = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);
const refs = { base_sha: BASE, start_sha: START, head_sha: HEAD };

const message = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ValidationError ? error.body : error;
  }
  return 'no error';
};

describe('lineCode', () => {
  it("is GitLab's <sha1(path)>_<old>_<new> (the value of GitLab's own specs)", () => {
    expect(lineCode('files/ruby/popen.rb', 14, 14)).toBe('2f6fcd96b88b36ce98c38da085c795a27d92a3dd_14_14');
    expect(lineCode('README.md', 0, 3)).toBe('8ec9a00bfd09b3190ac6b22251dbb1aa95a0579d_0_3');
  });
});

describe('parsePosition', () => {
  it('reads a text position as multipart sends it (strings), coercing line numbers', () => {
    const position = parsePosition({ ...refs, position_type: 'text', new_path: 'a.txt', old_path: 'a.txt', new_line: '12', old_line: '' });
    expect(position).toEqual({ ...refs, position_type: 'text', old_path: 'a.txt', new_path: 'a.txt', old_line: null, new_line: 12, line_range: null });
  });

  it('takes one path for both when a tool sends only one', () => {
    expect(parsePosition({ ...refs, position_type: 'text', new_path: 'only.txt', new_line: 1 })).toMatchObject({ old_path: 'only.txt', new_path: 'only.txt' });
  });

  it('reads a line range with its start and end', () => {
    const position = parsePosition({
      ...refs,
      position_type: 'text',
      new_path: 'a.txt',
      new_line: 3,
      line_range: { start: { line_code: 'x_1_1', type: 'new', new_line: '1' }, end: { line_code: 'x_3_3', type: '', old_line: '3', new_line: '3' } },
    });
    expect(position.line_range).toEqual({ start: { line_code: 'x_1_1', type: 'new', old_line: null, new_line: 1 }, end: { line_code: 'x_3_3', type: null, old_line: 3, new_line: 3 } });
  });

  it('reads image and file positions with the fields they need', () => {
    expect(positionForApi(parsePosition({ ...refs, position_type: 'image', new_path: 'i.png', width: '100', height: 50, x: 10, y: '0' }))).toEqual({
      ...refs,
      old_path: 'i.png',
      new_path: 'i.png',
      position_type: 'image',
      width: 100,
      height: 50,
      x: 10,
      y: 0,
    });
    expect(positionForApi(parsePosition({ ...refs, position_type: 'file', new_path: 'f.txt' }))).toEqual({ ...refs, old_path: 'f.txt', new_path: 'f.txt', position_type: 'file' });
  });

  it.each([
    ['no SHAs', { position_type: 'text', new_path: 'a', new_line: 1 }, '400 (Bad request) "position[base_sha]" not given'],
    ['a SHA that is not one', { ...refs, head_sha: 'main', position_type: 'text', new_path: 'a', new_line: 1 }, '400 (Bad request) "position[head_sha]" is invalid'],
    ['no type', { ...refs, new_path: 'a', new_line: 1 }, '400 (Bad request) "position[position_type]" not given'],
    ['an unknown type', { ...refs, position_type: 'design', new_path: 'a' }, '400 (Bad request) "position[position_type]" does not have a valid value'],
    ['no path', { ...refs, position_type: 'text', new_line: 1 }, '400 (Bad request) "position[new_path]" not given'],
    ['no line', { ...refs, position_type: 'text', new_path: 'a' }, '400 (Bad request) "position[new_line]" not given'],
    ['line 0', { ...refs, position_type: 'text', new_path: 'a', new_line: 0 }, '400 (Bad request) "position[new_line]" is invalid'],
    ['a line that is not a number', { ...refs, position_type: 'text', new_path: 'a', new_line: '1; DROP' }, '400 (Bad request) "position[new_line]" is invalid'],
    ['an image without its size', { ...refs, position_type: 'image', new_path: 'i.png', x: 1, y: 1 }, '400 (Bad request) "position[width]" not given'],
    ['a range without its end', { ...refs, position_type: 'text', new_path: 'a', new_line: 1, line_range: { start: { new_line: 1 } } }, '400 (Bad request) "position[line_range][end]" not given'],
    ['a range point with an unknown type', { ...refs, position_type: 'text', new_path: 'a', new_line: 1, line_range: { start: { new_line: 1, type: 'x' }, end: { new_line: 1 } } }, '400 (Bad request) "position[line_range][start][type]" is invalid'],
    ['a string', 'position', '400 (Bad request) "position" is invalid'],
  ])('refuses %s', (_name, input, expected) => {
    expect(message(() => parsePosition(input))).toBe(expected);
  });
});
