/**
 * The unchanged lines a diff leaves out, between and around its hunks, and how many of
 * them each "expand" click reveals. A gap is measured in new-file line numbers; on the
 * old side the same lines are offset by a constant (nothing changed inside a gap). Pure.
 */
import { firstLineOf, type Hunk } from './diff-hunks';

/** Lines revealed per click of "expand up" or "expand down" (GitLab's UNFOLD_COUNT). */
export const EXPAND_LINES = 20;

export interface Gap {
  /** The hunk this gap precedes; `hunks.length` for the gap after the last hunk. */
  index: number;
  /** First hidden new-file line. */
  newStart: number;
  /** Last hidden new-file line; null while the file's length is not known (the trailing gap). */
  newEnd: number | null;
  /** old line number = new line number + oldOffset, throughout the gap. */
  oldOffset: number;
}

/** How much of a gap is shown: lines after the hunk above (`top`) and before the hunk below (`bottom`). */
export interface GapExpansion {
  top: number;
  bottom: number;
}

export type ExpandDirection = 'up' | 'down' | 'all';

export const NOT_EXPANDED: GapExpansion = { top: 0, bottom: 0 };

/**
 * The gaps of a file's hunks: one before each hunk and one after the last. The trailing
 * gap's end is the file's line count once known (null until then; 0 lines when the last
 * hunk reaches the end).
 */
export function gapsOf(hunks: readonly Hunk[], newLineCount: number | null): Gap[] {
  const gaps: Gap[] = [];
  let newAfter = 1;
  let oldAfter = 1;
  hunks.forEach((hunk, index) => {
    const newFirst = firstLineOf(hunk.newStart, hunk.newCount);
    const oldFirst = firstLineOf(hunk.oldStart, hunk.oldCount);
    gaps.push({ index, newStart: newAfter, newEnd: newFirst - 1, oldOffset: oldFirst - newFirst });
    newAfter = newFirst + hunk.newCount;
    oldAfter = oldFirst + hunk.oldCount;
  });
  if (hunks.length > 0) {
    gaps.push({ index: hunks.length, newStart: newAfter, newEnd: newLineCount, oldOffset: oldAfter - newAfter });
  }
  return gaps;
}

/** Lines in the gap, or null when unknown. */
export function gapSize(gap: Gap): number | null {
  return gap.newEnd === null ? null : Math.max(0, gap.newEnd - gap.newStart + 1);
}

export interface GapView {
  /** Inclusive new-line ranges to show below the hunk above and above the hunk below. */
  top: [number, number] | null;
  bottom: [number, number] | null;
  /** Lines still hidden; null when the gap's size is not known yet. */
  hidden: number | null;
}

export function gapView(gap: Gap, expansion: GapExpansion): GapView {
  const size = gapSize(gap);
  if (size === null) return { top: null, bottom: null, hidden: null };
  const top = Math.min(expansion.top, size);
  const bottom = Math.min(expansion.bottom, size - top);
  return {
    top: top > 0 ? [gap.newStart, gap.newStart + top - 1] : null,
    bottom: bottom > 0 ? [gap.newStart + size - bottom, gap.newStart + size - 1] : null,
    hidden: size - top - bottom,
  };
}

/**
 * Which buttons a gap offers: the first gap can only grow upwards (towards line 1 from the
 * first hunk), the trailing one only downwards, the ones between hunks both ways.
 */
export function gapDirections(gap: Gap, gapCount: number): ExpandDirection[] {
  if (gap.index === 0) return ['up', 'all'];
  if (gap.index === gapCount - 1) return ['down', 'all'];
  return ['up', 'down', 'all'];
}

/**
 * One click: "down" reveals the next lines below the hunk above, "up" the lines just above
 * the hunk below, "all" the whole gap. A gap of unknown size records the wish; gapView
 * clamps it once the size is known.
 */
export function expandGap(gap: Gap, expansion: GapExpansion, direction: ExpandDirection, step = EXPAND_LINES): GapExpansion {
  const size = gapSize(gap) ?? Number.POSITIVE_INFINITY;
  const room = Math.max(0, size - expansion.top - expansion.bottom);
  switch (direction) {
    case 'down':
      return { ...expansion, top: expansion.top + Math.min(step, room) };
    case 'up':
      return { ...expansion, bottom: expansion.bottom + Math.min(step, room) };
    case 'all':
      return { top: Number.isFinite(size) ? size - expansion.bottom : Number.POSITIVE_INFINITY, bottom: expansion.bottom };
  }
}

/** Every gap fully open: GitLab's "Show full file". */
export function expandAll(gaps: readonly Gap[]): Record<number, GapExpansion> {
  return Object.fromEntries(gaps.map((gap) => [gap.index, { top: Number.POSITIVE_INFINITY, bottom: 0 }]));
}
