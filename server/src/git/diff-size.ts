/**
 * Pure: a diff's files from `diff-tree --raw --numstat` alone (no patch text), and how large
 * each file's patch can be, worked out from its blob sizes and line counts.
 *
 * Recording a merge request version needs each file's flags (too large, collapsed) and
 * line counts, not its text. The counts come from numstat; the flags depend only on which
 * band the patch size falls in (below the collapse limit, below the maximum, or over it).
 * A unified hunk holds each old line at most once (as context or `-`) and each new line at
 * most once (`+`), so blob sizes bound the patch: for an added or deleted file to within
 * one "\ No newline" line, for a modified file loosely. Only a file that may be too large
 * needs git to print its patch at recording (diff-stats.ts measures those); whether a file
 * near the collapse limit collapses is left to the reads, which print its text anyway.
 */
import type { FilePatch } from './diff-format.js';
import { baseDiff, type DiffLimits, type DiffPiece, type DiffSide } from './file-diffs.js';

/** A file of the diff before its patch size is known. */
export interface StatPiece extends Omit<DiffPiece, 'text' | 'bytes'> {
  /** The raw record's modes, to tell gitlinks (no blob) from blobs. */
  oldMode: string;
  newMode: string;
}

const GITLINK = '160000';
const REGULAR = /^100[67][0-9]{2}$/;
/** `\ No newline at end of file\n` */
const NO_NEWLINE_BYTES = 28;
/** xdiff writes a hunk header into a 128-byte buffer (line numbers and function name). */
const HUNK_HEADER_MAX_BYTES = 128;
/** Context lines around one change: three before and three after. */
const CONTEXT_LINES_PER_HUNK = 6;

/**
 * One piece per file, a type change split into its deletion and addition as git prints it.
 * numstat counts a type change as a whole: the deletion removes the old side's lines and
 * the addition adds the new side's. When it reports binary ("-") the regular file is the
 * binary side; the symlink or gitlink is one line of text.
 */
export function statPieces(files: readonly FilePatch[]): StatPiece[] {
  const pieces: StatPiece[] = [];
  for (const { record, added, removed } of files) {
    const binary = added === null || removed === null;
    const modes = { oldMode: record.oldMode, newMode: record.newMode };
    if (record.status !== 'T') {
      pieces.push({ base: baseDiff(record, 'both'), binary, added: added ?? 0, removed: removed ?? 0, ...modes });
      continue;
    }
    const half = (side: DiffSide, mode: string, lines: number | null) => {
      const sideBinary = binary && REGULAR.test(mode);
      const count = sideBinary ? 0 : (lines ?? 1);
      const oneSided = side === 'old' ? { ...modes, newMode: '000000' } : { ...modes, oldMode: '000000' };
      pieces.push({ base: baseDiff(record, side), binary: sideBinary, added: side === 'new' ? count : 0, removed: side === 'old' ? count : 0, ...oneSided });
    };
    half('old', record.oldMode, removed);
    half('new', record.newMode, added);
  }
  return pieces;
}

/** Object ids whose sizes the bounds need: the blobs of text files with changed lines. */
export function blobsToSize(pieces: readonly StatPiece[]): string[] {
  const ids = new Set<string>();
  for (const piece of pieces) {
    if (piece.binary || piece.added + piece.removed === 0) continue;
    if (piece.base.old_id && piece.oldMode !== GITLINK) ids.add(piece.base.old_id);
    if (piece.base.new_id && piece.newMode !== GITLINK) ids.add(piece.base.new_id);
  }
  return [...ids];
}

export interface PatchBounds {
  min: number;
  max: number;
}

const hunkRange = (lines: number) => (lines === 1 ? '1' : `1,${lines}`);

/**
 * Lowest and highest byte count the file's hunk text can have. `sizeOf` answers a blob's
 * size (undefined when unknown, which leaves the bounds open).
 */
export function patchBounds(piece: StatPiece, sizeOf: (id: string) => number | undefined): PatchBounds {
  const { base } = piece;
  if (piece.binary) {
    const before = base.new_file ? '/dev/null' : `a/${base.old_path}`;
    const after = base.deleted_file ? '/dev/null' : `b/${base.new_path}`;
    const bytes = Buffer.byteLength(`Binary files ${before} and ${after} differ\n`);
    return { min: bytes, max: bytes * 4 }; // quoting of odd names at most quadruples them
  }
  const changed = piece.added + piece.removed;
  if (changed === 0) return { min: 0, max: 0 }; // a rename, a mode change or an empty file: no hunk
  const size = (id: string, mode: string): number => {
    if (!id) return 0;
    if (mode === GITLINK) return `Subproject commit ${id}\n`.length;
    return sizeOf(id) ?? Number.POSITIVE_INFINITY;
  };
  const oldSize = size(base.old_id, piece.oldMode);
  const newSize = size(base.new_id, piece.newMode);
  if (base.new_file || base.deleted_file) {
    // Every line of the one side, each with its prefix; one header; maybe "\ No newline".
    const lines = base.new_file ? piece.added : piece.removed;
    const header = Buffer.byteLength(base.new_file ? `@@ -0,0 +${hunkRange(lines)} @@\n` : `@@ -${hunkRange(lines)} +0,0 @@\n`);
    const min = header + lines + (base.new_file ? newSize : oldSize);
    return { min, max: min + 1 + NO_NEWLINE_BYTES };
  }
  const content = oldSize + newSize;
  const prefixes = Math.min(content + 2, (CONTEXT_LINES_PER_HUNK + 1) * changed);
  return { min: 2 * changed + '@@ -1 +1 @@\n'.length, max: content + prefixes + 2 * (1 + NO_NEWLINE_BYTES) + changed * HUNK_HEADER_MAX_BYTES };
}

/** 0 below the collapse limit, 1 collapsed, 2 too large. */
function band(bytes: number, limits: DiffLimits): number {
  if (bytes >= limits.maxPatchBytes) return 2;
  return limits.collapsePatchBytes !== undefined && bytes >= limits.collapsePatchBytes ? 1 : 0;
}

/**
 * The byte count a version records for a file's patch, or null when git must print the
 * patch to tell. Bounds in one band of the limits settle it. Only a patch that may reach
 * the maximum is measured: such a file's text must never be printed on every read. One whose
 * bounds straddle only the collapse limit is recorded below it (its lower bound): any read
 * prints it anyway, and collapses it when the text is over (file-diffs.ts, collapsesOnRead).
 */
export function recordedPatchBytes(bounds: PatchBounds, limits: DiffLimits): number | null {
  const low = band(bounds.min, limits);
  const high = band(bounds.max, limits);
  return low === high || high < 2 ? bounds.min : null;
}
