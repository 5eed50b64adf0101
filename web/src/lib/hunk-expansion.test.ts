import { describe, expect, it } from 'vitest';
import { parseDiffHunks } from './diff-hunks';
import { EXPAND_LINES, expandAll, expandGap, gapDirections, gapSize, gapsOf, gapView, NOT_EXPANDED } from './hunk-expansion';

// A 100-line file: line 30 changed, two lines inserted after old line 60 (new 61-62), and
// old line 90 deleted.
const diff = `@@ -27,7 +27,7 @@
 c27
 c28
 c29
-old30
+new30
 c31
 c32
 c33
@@ -58,6 +58,8 @@
 c58
 c59
 c60
+ins1
+ins2
 c61
 c62
 c63
@@ -87,7 +89,6 @@
 c87
 c88
 c89
-c90
 c91
 c92
 c93
`;
const hunks = parseDiffHunks(diff).hunks;

describe('gapsOf', () => {
  it('finds the gaps before, between and after hunks, with the old-side offset', () => {
    expect(gapsOf(hunks, 101)).toEqual([
      { index: 0, newStart: 1, newEnd: 26, oldOffset: 0 },
      { index: 1, newStart: 34, newEnd: 57, oldOffset: 0 },
      { index: 2, newStart: 66, newEnd: 88, oldOffset: -2 },
      { index: 3, newStart: 95, newEnd: 101, oldOffset: -1 },
    ]);
  });

  it('leaves the trailing gap open-ended until the file length is known', () => {
    expect(gapsOf(hunks, null)[3]).toEqual({ index: 3, newStart: 95, newEnd: null, oldOffset: -1 });
    expect(gapSize(gapsOf(hunks, null)[3]!)).toBeNull();
  });

  it('handles ranges with a zero count (pure insertion and deletion)', () => {
    const inserted = parseDiffHunks('@@ -3,0 +4,2 @@\n+a\n+b\n').hunks;
    expect(gapsOf(inserted, 7)).toEqual([
      { index: 0, newStart: 1, newEnd: 3, oldOffset: 0 },
      { index: 1, newStart: 6, newEnd: 7, oldOffset: -2 },
    ]);
    const deleted = parseDiffHunks('@@ -2,2 +1,0 @@\n-a\n-b\n').hunks;
    expect(gapsOf(deleted, 3)).toEqual([
      { index: 0, newStart: 1, newEnd: 1, oldOffset: 0 },
      { index: 1, newStart: 2, newEnd: 3, oldOffset: 2 },
    ]);
  });

  it('has no gap before a hunk that starts at line 1', () => {
    const first = parseDiffHunks('@@ -1,2 +1,2 @@\n-a\n+b\n c\n').hunks;
    expect(gapSize(gapsOf(first, 2)[0]!)).toBe(0);
  });

  it('is empty for a file without hunks', () => {
    expect(gapsOf([], 10)).toEqual([]);
  });
});

describe('expanding a gap', () => {
  const between = gapsOf(hunks, 101)[1]!; // 24 lines: 34..57

  it('reveals EXPAND_LINES below the hunk above, then the rest', () => {
    const once = expandGap(between, NOT_EXPANDED, 'down');
    expect(once).toEqual({ top: EXPAND_LINES, bottom: 0 });
    expect(gapView(between, once)).toEqual({ top: [34, 53], bottom: null, hidden: 4 });
    const twice = expandGap(between, once, 'down');
    expect(gapView(between, twice)).toEqual({ top: [34, 57], bottom: null, hidden: 0 });
  });

  it('reveals lines above the hunk below with "up", never overlapping', () => {
    const state = expandGap(between, expandGap(between, NOT_EXPANDED, 'down'), 'up');
    expect(state).toEqual({ top: 20, bottom: 4 });
    expect(gapView(between, state)).toEqual({ top: [34, 53], bottom: [54, 57], hidden: 0 });
  });

  it('opens the whole gap with "all"', () => {
    expect(gapView(between, expandGap(between, { top: 0, bottom: 3 }, 'all'))).toEqual({ top: [34, 54], bottom: [55, 57], hidden: 0 });
  });

  it('remembers an expansion of an open-ended gap until its size is known', () => {
    const trailing = gapsOf(hunks, null)[3]!;
    const state = expandGap(trailing, NOT_EXPANDED, 'down');
    expect(gapView(trailing, state)).toEqual({ top: null, bottom: null, hidden: null });
    expect(gapView(gapsOf(hunks, 101)[3]!, state)).toEqual({ top: [95, 101], bottom: null, hidden: 0 });
  });

  it('opens every gap for "show full file"', () => {
    const gaps = gapsOf(hunks, 101);
    const all = expandAll(gaps);
    expect(gaps.map((gap) => gapView(gap, all[gap.index]!).hidden)).toEqual([0, 0, 0, 0]);
  });
});

describe('gapDirections', () => {
  it('offers up for the first gap, down for the last, both between', () => {
    const gaps = gapsOf(hunks, 101);
    expect(gaps.map((gap) => gapDirections(gap, gaps.length))).toEqual([
      ['up', 'all'],
      ['up', 'down', 'all'],
      ['up', 'down', 'all'],
      ['down', 'all'],
    ]);
  });
});
