import { describe, expect, it } from 'vitest';
import { parseDiffLines } from './diff-lines.js';
import { lineCode, type DiffRefs, type NotePosition } from './position.js';
import { mapLine, sameDiffRefs, tracePosition, type DiffSet, type TracedFile, type TraceDiffs } from './position-tracer.js';

const sha = (char: string) => char.repeat(40);
/** A = old base, B = old head, C = new base, D = new head. */
const OLD: DiffRefs = { base_sha: sha('a'), start_sha: sha('a'), head_sha: sha('b') };
const NEW: DiffRefs = { base_sha: sha('c'), start_sha: sha('c'), head_sha: sha('d') };
const AC: DiffRefs = { base_sha: sha('a'), start_sha: sha('a'), head_sha: sha('c') };
const BD: DiffRefs = { base_sha: sha('b'), start_sha: sha('b'), head_sha: sha('d') };

const F = 'src/file.txt';
const file = (patch: string, oldPath = F, newPath = F): TracedFile => ({ oldPath, newPath, diff: parseDiffLines(patch) });
const set = (refs: DiffRefs, ...files: TracedFile[]): DiffSet => ({ refs, files });
const diffs = (parts: { ac?: TracedFile[]; bd?: TracedFile[]; cd?: TracedFile[] }): TraceDiffs => ({
  ac: set(AC, ...(parts.ac ?? [])),
  bd: set(BD, ...(parts.bd ?? [])),
  cd: set(NEW, ...(parts.cd ?? [])),
});
const at = (oldLine: number | null, newLine: number | null, extra: Partial<NotePosition> = {}): NotePosition => ({
  ...OLD,
  position_type: 'text',
  old_path: F,
  new_path: F,
  old_line: oldLine,
  new_line: newLine,
  line_range: null,
  ...extra,
});

// The base file has lines l1..l10; the old head B changed l5 into L5 (A→B: -5 +5).
/** B→D: the push inserts two lines at the top. */
const PUSH_INSERTS_TOP = file('@@ -1,3 +1,5 @@\n+x\n+y\n l1\n l2\n l3\n');
/** C→D after that push (C = A): the two new lines and the changed l5. */
const CD_AFTER_INSERT = file('@@ -1,8 +1,10 @@\n+x\n+y\n l1\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n');
/** B→D: the push changes L5 again. */
const PUSH_CHANGES_L5 = file('@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-L5\n+L5!\n l6\n l7\n l8\n');
const CD_AFTER_CHANGE = file('@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5!\n l6\n l7\n l8\n');
/** B→D: the push changes l7. */
const PUSH_CHANGES_L7 = file('@@ -4,7 +4,7 @@\n l4\n L5\n l6\n-l7\n+l7!\n l8\n l9\n l10\n');

describe('mapLine (GitLab LineMapper)', () => {
  const diff = file('@@ -3,0 +4,2 @@\n+a\n+b\n@@ -10,2 +12,1 @@\n-r\n c\n');

  it('keeps every line of a file the diff does not name', () => {
    expect(mapLine(undefined, 7, 'old')).toBe(7);
  });

  it('moves lines by what the hunks above them added and removed', () => {
    expect(mapLine(diff, 3, 'old')).toBe(3);
    expect(mapLine(diff, 4, 'old')).toBe(6);
    expect(mapLine(diff, 9, 'old')).toBe(11);
    expect(mapLine(diff, 11, 'old')).toBe(12);
    expect(mapLine(diff, 20, 'old')).toBe(21);
    expect(mapLine(diff, 6, 'new')).toBe(4);
    expect(mapLine(diff, 21, 'new')).toBe(20);
  });

  it('has no counterpart for a removed line (old side) or an added line (new side)', () => {
    expect(mapLine(diff, 10, 'old')).toBeNull();
    expect(mapLine(diff, 4, 'new')).toBeNull();
    expect(mapLine(diff, 5, 'new')).toBeNull();
  });

  it('follows no line through a file git printed no patch for', () => {
    expect(mapLine({ oldPath: F, newPath: F, diff: null }, 1, 'old')).toBeNull();
  });

  it('loses every line of a deleted file', () => {
    const deleted = file('@@ -1,3 +0,0 @@\n-a\n-b\n-c\n');
    expect([1, 2, 3].map((line) => mapLine(deleted, line, 'old'))).toEqual([null, null, null]);
  });
});

describe('tracePosition: text lines (GitLab LineStrategy)', () => {
  it('moves an added line that a push shifted, onto the new diff refs with a new line code', () => {
    const result = tracePosition(at(null, 5), diffs({ bd: [PUSH_INSERTS_TOP], cd: [CD_AFTER_INSERT] }));
    expect(result).toEqual({
      outdated: false,
      position: { ...NEW, position_type: 'text', old_path: F, new_path: F, old_line: null, new_line: 7, line_range: null },
      lineCode: lineCode(F, 6, 7),
    });
  });

  it('makes an added line outdated when the push changes it, with the change on B→D', () => {
    const result = tracePosition(at(null, 5), diffs({ bd: [PUSH_CHANGES_L5], cd: [CD_AFTER_CHANGE] }));
    expect(result).toEqual({
      outdated: true,
      changePosition: { ...BD, position_type: 'text', old_path: F, new_path: F, old_line: 5, new_line: null, line_range: null },
    });
  });

  it('makes a line outdated when the push deletes its file', () => {
    const deleted = file('@@ -1,10 +0,0 @@\n' + ['l1', 'l2', 'l3', 'l4', 'L5', 'l6', 'l7', 'l8', 'l9', 'l10'].map((line) => `-${line}`).join('\n') + '\n', F, F);
    const result = tracePosition(at(null, 5), diffs({ bd: [deleted] }));
    expect(result).toMatchObject({ outdated: true, changePosition: { ...BD, old_line: 5, new_line: null } });
  });

  it('keeps an unchanged line the push shifted, while the new diff still shows it', () => {
    const result = tracePosition(at(7, 7), diffs({ bd: [PUSH_INSERTS_TOP], cd: [CD_AFTER_INSERT] }));
    expect(result).toMatchObject({ outdated: false, position: { ...NEW, old_line: 7, new_line: 9 }, lineCode: lineCode(F, 7, 9) });
  });

  it('keeps an unchanged line when the push changes another line of the hunk', () => {
    const result = tracePosition(at(7, 7), diffs({ bd: [PUSH_CHANGES_L5], cd: [CD_AFTER_CHANGE] }));
    expect(result).toMatchObject({ outdated: false, position: { old_line: 7, new_line: 7 } });
  });

  it('makes an unchanged line outdated when the push changes it', () => {
    const cd = file('@@ -2,9 +2,9 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n-l7\n+l7!\n l8\n l9\n l10\n');
    const result = tracePosition(at(7, 7), diffs({ bd: [PUSH_CHANGES_L7], cd: [cd] }));
    expect(result).toMatchObject({ outdated: true, changePosition: { ...BD, old_line: 7, new_line: null } });
  });

  it('makes an unchanged line outdated (no change to show) when the new diff no longer shows it (GitLab)', () => {
    // The push reverted L5: the file is no longer part of the merge request.
    const revert = file('@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-L5\n+l5\n l6\n l7\n l8\n');
    expect(tracePosition(at(7, 7), diffs({ bd: [revert] }))).toEqual({ outdated: true, changePosition: null });
  });

  describe('removed lines (the old head deleted l5)', () => {
    it('stay removed, on the new refs, when the push does not touch them', () => {
      const cd = file('@@ -1,8 +1,9 @@\n+x\n+y\n l1\n l2\n l3\n l4\n-l5\n l6\n l7\n l8\n');
      const bd = file('@@ -1,3 +1,5 @@\n+x\n+y\n l1\n l2\n l3\n');
      expect(tracePosition(at(5, null), diffs({ bd: [bd], cd: [cd] }))).toMatchObject({ outdated: false, position: { ...NEW, old_line: 5, new_line: null } });
    });

    it('follow a rebase: the target grew a line above, so the old line number grows', () => {
      const ac = file('@@ -1,3 +1,4 @@\n+t\n l1\n l2\n l3\n');
      const cd = file('@@ -3,7 +3,6 @@\n l2\n l3\n l4\n-l5\n l6\n l7\n l8\n');
      const bd = file('@@ -1,3 +1,4 @@\n+t\n l1\n l2\n l3\n');
      expect(tracePosition(at(5, null), diffs({ ac: [ac], bd: [bd], cd: [cd] }))).toMatchObject({ outdated: false, position: { old_line: 6, new_line: null } });
    });

    it('become outdated when the push puts the line back', () => {
      const restore = file('@@ -2,6 +2,7 @@\n l2\n l3\n l4\n+l5\n l6\n l7\n l8\n');
      expect(tracePosition(at(5, null), diffs({ bd: [restore] }))).toMatchObject({ outdated: true, changePosition: { ...BD, old_line: null, new_line: 5 } });
    });

    it('become outdated when the target itself removed the line (A→C)', () => {
      const ac = file('@@ -4,3 +4,2 @@\n l4\n-l5\n l6\n');
      expect(tracePosition(at(5, null), diffs({ ac: [ac] }))).toMatchObject({ outdated: true, changePosition: { ...AC, old_line: 5, new_line: null } });
    });
  });

  it('makes an added line the target also gained outdated when the new diff hides it', () => {
    // A rebase onto a target that already has L5: C→D no longer shows the line.
    const ac = file('@@ -4,3 +4,3 @@\n l4\n-l5\n+L5\n l6\n');
    expect(tracePosition(at(null, 5), diffs({ ac: [ac] }))).toMatchObject({ outdated: true, changePosition: { ...AC, old_line: null, new_line: 5 } });
  });

  it('follows a renamed file to its new path', () => {
    const renamed = file('', F, 'src/moved.txt');
    renamed.diff = { lines: [], hunks: [] };
    const cd = file('@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n', F, 'src/moved.txt');
    expect(tracePosition(at(null, 5), diffs({ bd: [renamed], cd: [cd] }))).toMatchObject({
      outdated: false,
      position: { old_path: F, new_path: 'src/moved.txt', new_line: 5 },
      // GitLab's counters: the added line comes after the removed old line 5
      lineCode: lineCode('src/moved.txt', 6, 5),
    });
  });

  describe('line ranges', () => {
    const range = at(7, 7, {
      line_range: { start: { line_code: 'x', type: 'new', old_line: null, new_line: 5 }, end: { line_code: 'y', type: null, old_line: 7, new_line: 7 } },
    });

    it('move both ends with the line', () => {
      const result = tracePosition(range, diffs({ bd: [PUSH_INSERTS_TOP], cd: [CD_AFTER_INSERT] }));
      expect(result).toMatchObject({
        outdated: false,
        position: {
          old_line: 7,
          new_line: 9,
          line_range: { start: { line_code: lineCode(F, 6, 7), type: 'new', old_line: null, new_line: 7 }, end: { line_code: lineCode(F, 7, 9), type: null, old_line: 7, new_line: 9 } },
        },
      });
    });

    it('are outdated when a line inside them changed', () => {
      expect(tracePosition(range, diffs({ bd: [PUSH_CHANGES_L5], cd: [CD_AFTER_CHANGE] }))).toMatchObject({ outdated: true, changePosition: { ...BD, old_line: 5, new_line: null } });
    });
  });
});

describe('tracePosition: files and images (GitLab FileStrategy, ImageStrategy)', () => {
  const image: NotePosition = { ...OLD, position_type: 'image', old_path: 'pic.png', new_path: 'pic.png', width: 10, height: 10, x: 1, y: 2 };
  const binary = (path = 'pic.png'): TracedFile => ({ oldPath: path, newPath: path, diff: null });

  it('moves to the new refs while the push leaves the file alone', () => {
    expect(tracePosition(image, diffs({ cd: [binary()] }))).toEqual({ outdated: false, position: { ...image, ...NEW }, lineCode: null });
    const whole: NotePosition = { ...OLD, position_type: 'file', old_path: F, new_path: F };
    expect(tracePosition(whole, diffs({ cd: [CD_AFTER_CHANGE] }))).toEqual({ outdated: false, position: { ...whole, ...NEW }, lineCode: null });
  });

  it('is outdated when the push changed the file, a binary image or any line of a file', () => {
    expect(tracePosition(image, diffs({ bd: [binary()], cd: [binary()] }))).toEqual({ outdated: true, changePosition: { ...image, ...BD } });
    const whole: NotePosition = { ...OLD, position_type: 'file', old_path: F, new_path: F };
    expect(tracePosition(whole, diffs({ bd: [PUSH_INSERTS_TOP] }))).toEqual({ outdated: true, changePosition: { ...whole, ...BD } });
  });

  it('is outdated when only the target changed the file (A→C)', () => {
    expect(tracePosition(image, diffs({ ac: [binary()] }))).toEqual({ outdated: true, changePosition: { ...image, ...AC } });
  });

  it('is outdated, with nothing to show, when no diff has the file any more', () => {
    expect(tracePosition(image, diffs({}))).toEqual({ outdated: true, changePosition: null });
  });
});

describe('sameDiffRefs', () => {
  it('compares the three SHAs', () => {
    expect(sameDiffRefs(OLD, { ...OLD })).toBe(true);
    expect(sameDiffRefs(OLD, { ...OLD, start_sha: sha('e') })).toBe(false);
  });
});
