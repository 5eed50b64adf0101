import type { EmojiInfo } from './emoji-data';

/** GitLab's picker grid (emoji/constants.js): 9 to a row, rows 34 px, category headings 37 px. */
export const EMOJIS_PER_ROW = 9;
export const EMOJI_ROW_HEIGHT = 34;
export const CATEGORY_ROW_HEIGHT = 37;

export interface PickerSection {
  key: string;
  title: string;
  emojis: readonly EmojiInfo[];
}

export type PickerRow = { kind: 'heading'; key: string; title: string } | { kind: 'emoji'; first: number; emojis: readonly EmojiInfo[] };

export interface PickerLayout {
  rows: PickerRow[];
  /** every cell in display order; a cell's index is its place here (an emoji may be in two sections) */
  cells: EmojiInfo[];
  /** the row each cell is in */
  rowOfCell: number[];
  /** the heading row of each section */
  sectionRow: Map<string, number>;
}

/** The virtual list's rows: each non-empty section's heading, then its emoji 9 to a row. */
export function pickerLayout(sections: readonly PickerSection[]): PickerLayout {
  const layout: PickerLayout = { rows: [], cells: [], rowOfCell: [], sectionRow: new Map() };
  for (const section of sections) {
    if (section.emojis.length === 0) continue;
    layout.sectionRow.set(section.key, layout.rows.length);
    layout.rows.push({ kind: 'heading', key: section.key, title: section.title });
    for (let start = 0; start < section.emojis.length; start += EMOJIS_PER_ROW) {
      const emojis = section.emojis.slice(start, start + EMOJIS_PER_ROW);
      const row = layout.rows.length;
      layout.rows.push({ kind: 'emoji', first: layout.cells.length, emojis });
      for (const emoji of emojis) {
        layout.cells.push(emoji);
        layout.rowOfCell.push(row);
      }
    }
  }
  return layout;
}

export const rowHeight = (row: PickerRow) => (row.kind === 'heading' ? CATEGORY_ROW_HEIGHT : EMOJI_ROW_HEIGHT);

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

/**
 * The cell an arrow key moves to: left and right through the cells in order, up and down to
 * the same column of the emoji row above or below (the last cell of a shorter row). -1 (none
 * active yet) goes to the first cell; at an edge the active cell stays.
 */
export function moveActive(layout: PickerLayout, active: number, key: ArrowKey): number {
  const count = layout.cells.length;
  if (count === 0) return -1;
  if (active < 0 || active >= count) return 0;
  if (key === 'ArrowLeft') return Math.max(0, active - 1);
  if (key === 'ArrowRight') return Math.min(count - 1, active + 1);
  const rowIndex = layout.rowOfCell[active]!;
  const row = layout.rows[rowIndex] as Extract<PickerRow, { kind: 'emoji' }>;
  const column = active - row.first;
  const step = key === 'ArrowDown' ? 1 : -1;
  for (let next = rowIndex + step; next >= 0 && next < layout.rows.length; next += step) {
    const candidate = layout.rows[next]!;
    if (candidate.kind === 'emoji') return candidate.first + Math.min(column, candidate.emojis.length - 1);
  }
  return active;
}
