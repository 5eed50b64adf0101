import { describe, expect, it } from 'vitest';
import { lineCodeFromHash, lineRangeInOrder, positionFilePath, type LinePoint } from './diff-position.js';

describe('lineCodeFromHash', () => {
  it("is GitLab's <sha1(path)>_<old>_<new> (the value of GitLab's own specs, sha1('files/ruby/popen.rb'))", () => {
    expect(lineCodeFromHash('2f6fcd96b88b36ce98c38da085c795a27d92a3dd', 14, 14)).toBe('2f6fcd96b88b36ce98c38da085c795a27d92a3dd_14_14');
  });

  it('keeps the 0 a new file has on its old side', () => {
    expect(lineCodeFromHash('8ec9a00bfd09b3190ac6b22251dbb1aa95a0579d', 0, 3)).toBe('8ec9a00bfd09b3190ac6b22251dbb1aa95a0579d_0_3');
  });
});

describe('positionFilePath', () => {
  it('names a file by its new path, a deleted file by its old path', () => {
    expect(positionFilePath({ old_path: 'old.txt', new_path: 'new.txt' })).toBe('new.txt');
    expect(positionFilePath({ old_path: 'gone.txt', new_path: '' })).toBe('gone.txt');
  });
});

describe('lineRangeInOrder', () => {
  const point = (old_line: number | null, new_line: number | null): LinePoint => ({ line_code: null, type: null, old_line, new_line });
  it.each([
    ['forwards on the new side', point(null, 3), point(null, 5), true],
    ['one line', point(4, 4), point(4, 4), true],
    ['backwards on the new side', point(4, 6), point(null, 5), false],
    ['forwards on the old side', point(2, null), point(9, null), true],
    ['backwards on the old side', point(9, null), point(2, null), false],
    ['from a removed line to an added one', point(7, null), point(null, 2), true],
  ])('%s', (_name, start, end, expected) => {
    expect(lineRangeInOrder({ start, end })).toBe(expected);
  });
});
