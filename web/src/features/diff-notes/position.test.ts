import { describe, expect, it } from 'vitest';
import type { DiffRow } from '../../lib/diff-rows';
import { filePosition, imagePosition, lineCode, lineCodes, lineKey, linePoint, parsePointAttribute, pinPlacement, pointAttribute, pointFromRows, rangeLabel, textPosition } from './position';
import { sha1Hex } from './sha1';

const refs = { base_sha: 'a'.repeat(40), start_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40) };
const file = { oldPath: 'src/a.ts', newPath: 'src/a.ts', deletedFile: false };

describe('sha1Hex', () => {
  it.each([
    ['', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
    ['abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    // 56 bytes: the padding spills into a second block
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '84983e441c3bd26ebaae4aa1f95129e5e54670f1'],
    ['ünïcödé/päth.md', '1bba96ac0a4c4d6e7d3d1c1a0a56f8f72b6ce3d7'],
  ])('hashes %j', (text, hex) => {
    if (text.startsWith('ü')) {
      // checked against node:crypto rather than a constant
      return import('node:crypto').then(({ createHash }) => expect(sha1Hex(text)).toBe(createHash('sha1').update(text).digest('hex')));
    }
    expect(sha1Hex(text)).toBe(hex);
  });
});

describe('line codes', () => {
  it("are GitLab's <sha1(path)>_<old>_<new> (the values of GitLab's own specs)", () => {
    expect(lineCode('files/ruby/popen.rb', 14, 14)).toBe('2f6fcd96b88b36ce98c38da085c795a27d92a3dd_14_14');
    expect(lineCode('README.md', 0, 3)).toBe('8ec9a00bfd09b3190ac6b22251dbb1aa95a0579d_0_3');
  });

  it("give an added line the old side's next line and a removed line the new side's", () => {
    const rows: DiffRow[] = [
      { type: 'expander', gapIndex: 0, header: '@@ -4,3 +4,3 @@', hidden: 3, directions: ['up'] },
      { type: 'context', text: 'same', oldLine: 4, newLine: 4 },
      { type: 'delete', text: 'old', oldLine: 5, newLine: null },
      { type: 'add', text: 'new', oldLine: null, newLine: 5 },
      { type: 'context', text: 'same', oldLine: 6, newLine: 6 },
    ];
    const codes = [...lineCodes('a.txt', rows).values()].map((code) => code.slice(41));
    expect(codes).toEqual(['4_4', '5_5', '6_5', '6_6']);
  });

  it('count a new file from old line 0', () => {
    const rows: DiffRow[] = [
      { type: 'hunk', header: '@@ -0,0 +1,3 @@' },
      { type: 'add', text: 'a', oldLine: null, newLine: 1 },
      { type: 'add', text: 'b', oldLine: null, newLine: 2 },
      { type: 'add', text: 'c', oldLine: null, newLine: 3 },
    ];
    expect([...lineCodes('README.md', rows).values()].at(-1)).toBe('8ec9a00bfd09b3190ac6b22251dbb1aa95a0579d_0_3');
  });
});

describe('linePoint', () => {
  it.each([
    ['an added line: new side only', { type: 'add' as const, oldLine: null, newLine: 7 }, { type: 'new', old_line: null, new_line: 7 }],
    ['a removed line: old side only', { type: 'delete' as const, oldLine: 3, newLine: null }, { type: 'old', old_line: 3, new_line: null }],
    ['an unchanged line: both sides', { type: 'context' as const, oldLine: 3, newLine: 4 }, { type: null, old_line: 3, new_line: 4 }],
  ])('%s', (_name, row, expected) => {
    expect(linePoint(row)).toEqual({ line_code: null, ...expected });
  });
});

describe('textPosition', () => {
  const a = linePoint({ type: 'add', oldLine: null, newLine: 2 }, 'x_1_2');
  const b = linePoint({ type: 'context', oldLine: 4, newLine: 5 }, 'x_4_5');

  it('names one line without a range', () => {
    expect(textPosition(refs, file, a)).toEqual({ ...refs, old_path: 'src/a.ts', new_path: 'src/a.ts', position_type: 'text', old_line: null, new_line: 2, line_range: null });
  });

  it('anchors a dragged range at its last line', () => {
    const position = textPosition(refs, file, a, b, true);
    expect(position).toMatchObject({ old_line: 4, new_line: 5, line_range: { start: a, end: b } });
    expect(rangeLabel(position)).toBe('+2 to 5');
  });

  // GitLab's multiline comment utils: + for added, - for removed, the bare number of an unchanged
  // line (new side when the other end is added, else old)
  it.each([
    ['added to added', linePoint({ type: 'add', oldLine: null, newLine: 2 }), linePoint({ type: 'add', oldLine: null, newLine: 4 }), '+2 to +4'],
    ['unchanged to added', linePoint({ type: 'context', oldLine: 6, newLine: 7 }), linePoint({ type: 'add', oldLine: null, newLine: 9 }), '7 to +9'],
    ['removed to unchanged', linePoint({ type: 'delete', oldLine: 3, newLine: null }), linePoint({ type: 'context', oldLine: 5, newLine: 6 }), '-3 to 5'],
    ['unchanged to unchanged', linePoint({ type: 'context', oldLine: 5, newLine: 6 }), linePoint({ type: 'context', oldLine: 8, newLine: 9 }), '5 to 8'],
    ['of one line', linePoint({ type: 'add', oldLine: null, newLine: 4 }), linePoint({ type: 'add', oldLine: null, newLine: 4 }), null],
  ])('labels a range %s', (_name, start, end, expected) => {
    expect(rangeLabel(textPosition(refs, file, start, end, true))).toBe(expected);
  });

  it('makes the same range of a drag upwards', () => {
    expect(textPosition(refs, file, b, a, false)).toEqual(textPosition(refs, file, a, b, true));
  });

  it('is one line when the drag ends where it started', () => {
    expect(textPosition(refs, file, b, { ...b }, true).line_range).toBeNull();
  });

  it('keys threads by both sides', () => {
    expect(lineKey(a)).toBe('_2');
    expect(lineKey({ old_line: 4, new_line: 5 })).toBe('4_5');
  });
});

describe('filePosition', () => {
  it('names the file by both paths', () => {
    expect(filePosition(refs, { oldPath: 'old.md', newPath: 'new.md', deletedFile: false })).toEqual({ ...refs, old_path: 'old.md', new_path: 'new.md', position_type: 'file' });
  });
});

describe('imagePosition', () => {
  const image = { oldPath: 'i.png', newPath: 'i.png', deletedFile: false };

  it('scales a click on the drawn image to the natural size', () => {
    // a 400×200 image drawn at 200×100: the click at (50, 25) is pixel (100, 50)
    expect(imagePosition(refs, image, { x: 50, y: 25 }, { width: 200, height: 100 }, { width: 400, height: 200 })).toEqual({
      ...refs,
      old_path: 'i.png',
      new_path: 'i.png',
      position_type: 'image',
      x: 100,
      y: 50,
      width: 400,
      height: 200,
    });
  });

  it('keeps the pin inside the image', () => {
    expect(imagePosition(refs, image, { x: -3, y: 500 }, { width: 100, height: 100 }, { width: 10, height: 10 })).toMatchObject({ x: 0, y: 9 });
  });

  it('places a pin by percent, at any drawn size', () => {
    expect(pinPlacement({ x: 100, y: 50, width: 400, height: 200 })).toEqual({ left: '25.000%', top: '25.000%' });
  });
});

describe('drag points', () => {
  it('round-trip through the data-point attribute', () => {
    expect(parsePointAttribute(pointAttribute({ type: 'add', oldLine: null, newLine: 5 }))).toEqual({ type: 'add', oldLine: null, newLine: 5 });
    expect(parsePointAttribute(pointAttribute({ type: 'context', oldLine: 2, newLine: 3 }))).toEqual({ type: 'context', oldLine: 2, newLine: 3 });
    expect(parsePointAttribute('expander:1:2')).toBeNull();
  });

  it('carry their line code from the rows', () => {
    const rows: DiffRow[] = [
      { type: 'hunk', header: '@@ -1,1 +1,2 @@' },
      { type: 'context', text: 'a', oldLine: 1, newLine: 1 },
      { type: 'add', text: 'b', oldLine: null, newLine: 2 },
    ];
    expect(pointFromRows('a.txt', rows, { type: 'add', oldLine: null, newLine: 2 })).toEqual({ line_code: `${sha1Hex('a.txt')}_2_2`, type: 'new', old_line: null, new_line: 2 });
  });
});
