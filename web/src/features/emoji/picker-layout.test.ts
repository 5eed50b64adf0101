import { describe, expect, it } from 'vitest';
import type { EmojiInfo } from './emoji-data';
import { moveActive, pickerLayout } from './picker-layout';

const emoji = (name: string): EmojiInfo => ({ name, names: [name], char: '?', description: name, tags: [], category: 'people' });
const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => emoji(`${prefix}${i}`));

// frequently used: 3; people: 12 (rows of 9 and 3); empty section left out; food: 2
const layout = pickerLayout([
  { key: 'frequently_used', title: 'Frequently used', emojis: many('f', 3) },
  { key: 'people', title: 'Smileys & people', emojis: many('p', 12) },
  { key: 'nature', title: 'Nature', emojis: [] },
  { key: 'food', title: 'Food', emojis: many('d', 2) },
]);

describe('pickerLayout', () => {
  it('lays out headings and rows of 9, skipping empty sections', () => {
    expect(layout.rows.map((row) => (row.kind === 'heading' ? row.title : row.emojis.length))).toEqual(['Frequently used', 3, 'Smileys & people', 9, 3, 'Food', 2]);
    expect(layout.cells).toHaveLength(17);
    expect([...layout.sectionRow.entries()]).toEqual([
      ['frequently_used', 0],
      ['people', 2],
      ['food', 5],
    ]);
  });
});

describe('moveActive (keyboard navigation)', () => {
  it('starts at the first emoji', () => {
    expect(moveActive(layout, -1, 'ArrowDown')).toBe(0);
  });

  it('moves left and right through the cells, stopping at the ends', () => {
    expect(moveActive(layout, 2, 'ArrowRight')).toBe(3);
    expect(moveActive(layout, 0, 'ArrowLeft')).toBe(0);
    expect(moveActive(layout, 16, 'ArrowRight')).toBe(16);
  });

  it('moves up and down to the same column, or the last cell of a shorter row', () => {
    // frequently used col 1 → people row 1 col 1
    expect(moveActive(layout, 1, 'ArrowDown')).toBe(4);
    // people row 1 col 8 → people row 2 (3 cells): its last
    expect(moveActive(layout, 11, 'ArrowDown')).toBe(14);
    // people row 2 col 2 → back up to people row 1 col 2
    expect(moveActive(layout, 14, 'ArrowUp')).toBe(5);
    // the last row stays on Down, the first on Up
    expect(moveActive(layout, 16, 'ArrowDown')).toBe(16);
    expect(moveActive(layout, 0, 'ArrowUp')).toBe(0);
  });

  it('has nothing to move to in an empty list', () => {
    expect(moveActive(pickerLayout([]), -1, 'ArrowRight')).toBe(-1);
  });
});
