import { describe, expect, it } from 'vitest';
import type { FilePatch, RawDiffRecord } from './diff-format.js';
import { blobsToSize, patchBounds, recordedPatchBytes, statPieces } from './diff-size.js';
import { MERGE_REQUEST_DIFF_LIMITS } from './file-diffs.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

function stat(record: Partial<RawDiffRecord>, added: number | null, removed: number | null): FilePatch {
  return { record: { oldMode: '100644', newMode: '100644', oldId: A, newId: B, status: 'M', score: null, oldPath: 'f.txt', newPath: 'f.txt', ...record }, added, removed, patches: [] };
}
const sizes = (map: Record<string, number>) => (id: string) => map[id];

describe('statPieces', () => {
  it('takes counts from numstat, binary when numstat says "-"', () => {
    expect(statPieces([stat({}, 3, 2)])[0]).toMatchObject({ added: 3, removed: 2, binary: false, base: { old_id: A, new_id: B } });
    expect(statPieces([stat({}, null, null)])[0]).toMatchObject({ added: 0, removed: 0, binary: true });
  });

  it('splits a type change: the deletion removes the old side’s lines, the addition adds the new side’s', () => {
    const [gone, added] = statPieces([stat({ status: 'T', newMode: '120000' }, 1, 2)]);
    expect(gone).toMatchObject({ base: { deleted_file: true, old_id: A, new_id: '' }, added: 0, removed: 2, binary: false });
    expect(added).toMatchObject({ base: { new_file: true, old_id: '', new_id: B, b_mode: '120000' }, added: 1, removed: 0, binary: false });
  });

  it('in a binary type change, the regular file is the binary side and the symlink one line', () => {
    const [gone, added] = statPieces([stat({ status: 'T', newMode: '120000' }, null, null)]);
    expect(gone).toMatchObject({ binary: true, removed: 0 });
    expect(added).toMatchObject({ binary: false, added: 1 });
  });
});

describe('blobsToSize', () => {
  it('asks for the blobs of changed text files, never gitlinks, binaries or unchanged content', () => {
    const pieces = statPieces([
      stat({}, 1, 1),
      stat({ oldPath: 'bin', newPath: 'bin', oldId: 'c'.repeat(40), newId: 'd'.repeat(40) }, null, null),
      stat({ oldPath: 'sub', newPath: 'sub', oldMode: '160000', newMode: '160000', oldId: 'e'.repeat(40), newId: 'f'.repeat(40) }, 1, 1),
      stat({ status: 'R', oldPath: 'x', newPath: 'y', oldId: '1'.repeat(40), newId: '1'.repeat(40) }, 0, 0),
    ]);
    expect(blobsToSize(pieces)).toEqual([A, B]);
  });
});

describe('patchBounds', () => {
  it('is exact to within one "\\ No newline" line for an added file', () => {
    // "@@ -0,0 +1,2 @@\n+a\n+b\n" is 22 bytes; without the last newline 50.
    const [piece] = statPieces([stat({ status: 'A', oldMode: '000000', oldId: ZERO }, 2, 0)]);
    expect(patchBounds(piece!, sizes({ [B]: 4 }))).toEqual({ min: 22, max: 22 + 29 });
  });

  it('is exact for a deleted one-line file', () => {
    // "@@ -1 +0,0 @@\n-bye\n" is 19 bytes.
    const [piece] = statPieces([stat({ status: 'D', newMode: '000000', newId: ZERO }, 0, 1)]);
    expect(patchBounds(piece!, sizes({ [A]: 4 })).min).toBe(19);
  });

  it('sizes a gitlink by its "Subproject commit" line, without a blob', () => {
    const [piece] = statPieces([stat({ status: 'A', oldMode: '000000', newMode: '160000', oldId: ZERO }, 1, 0)]);
    // "@@ -0,0 +1 @@\n" + "+Subproject commit <40 hex>\n"
    expect(patchBounds(piece!, sizes({})).min).toBe(14 + 1 + 59);
  });

  it('bounds a modified file by its blobs: every old and new line at most once', () => {
    const [piece] = statPieces([stat({}, 1, 1)]);
    const bounds = patchBounds(piece!, sizes({ [A]: 100_000, [B]: 100_000 }));
    expect(bounds.min).toBeLessThan(100);
    expect(bounds.max).toBeGreaterThanOrEqual(200_000);
  });

  it('has nothing to bound for a rename without changes or a binary file', () => {
    expect(patchBounds(statPieces([stat({ status: 'R', oldPath: 'a', newPath: 'b' }, 0, 0)])[0]!, sizes({}))).toEqual({ min: 0, max: 0 });
    expect(patchBounds(statPieces([stat({}, null, null)])[0]!, sizes({})).max).toBeLessThan(1000);
  });

  it('leaves the bounds open when a blob size is unknown', () => {
    expect(patchBounds(statPieces([stat({}, 1, 1)])[0]!, sizes({})).max).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('recordedPatchBytes', () => {
  const limits = MERGE_REQUEST_DIFF_LIMITS; // collapse at 20 480, too large at 204 800
  it('records bounds that fall in one band of the limits', () => {
    expect(recordedPatchBytes({ min: 100, max: 20_479 }, limits)).toBe(100);
    expect(recordedPatchBytes({ min: 20_480, max: 204_799 }, limits)).toBe(20_480);
    expect(recordedPatchBytes({ min: 204_800, max: Number.POSITIVE_INFINITY }, limits)).toBe(204_800);
  });

  it('records a patch that straddles only the collapse limit below it (reads decide), and has git measure one that may be too large', () => {
    expect(recordedPatchBytes({ min: 20_465, max: 20_494 }, limits)).toBe(20_465);
    expect(recordedPatchBytes({ min: 10, max: 204_799 }, limits)).toBe(10);
    expect(recordedPatchBytes({ min: 10, max: 204_800 }, limits)).toBeNull();
    expect(recordedPatchBytes({ min: 30_000, max: 300_000 }, limits)).toBeNull();
  });

  it('without a collapse limit, only the maximum divides the bands', () => {
    expect(recordedPatchBytes({ min: 10, max: 100_000 }, { ...limits, collapsePatchBytes: undefined })).toBe(10);
  });
});
