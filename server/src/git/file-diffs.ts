/**
 * Turns parsed diff-tree output into GitLab's diff objects and applies GitLab's diff limits
 * (doc/administration/diff_limits: 200 KB per file patch, 1000 files, 50 000 lines).
 * Pure: the limits and their effects are tested without git.
 */
import { hunkText, type FilePatch, type RawDiffRecord } from './diff-format.js';

export const DIFF_MAX_PATCH_BYTES = 200 * 1024;
export const DIFF_MAX_FILES = 1000;
export const DIFF_MAX_LINES = 50_000;

export interface DiffLimits {
  /** A file whose patch is larger is returned with `too_large: true` and no diff text. */
  maxPatchBytes: number;
  /** Files beyond this many are left out and `overflow` is set. */
  maxFiles: number;
  /** Once this many lines were returned, further files are collapsed and `overflow` is set. */
  maxLines: number;
  /** Patch output git may write before it is stopped and every file is listed without text. */
  maxOutputBytes?: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxPatchBytes: DIFF_MAX_PATCH_BYTES, maxFiles: DIFF_MAX_FILES, maxLines: DIFF_MAX_LINES };

/** One file of a diff as GitLab's API shapes it, plus ids and line counts for our own pages. */
export interface FileDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
  diff: string;
  too_large: boolean;
  collapsed: boolean;
  binary: boolean;
  old_id: string;
  new_id: string;
  added_lines: number;
  removed_lines: number;
}

export interface DiffResult {
  diffs: FileDiff[];
  /** Some files were left out or collapsed because the diff exceeded the limits. */
  overflow: boolean;
}

const ZERO_ID = /^0+$/;

/** GitLab prints modes without leading zeros: `100644`, `0` for a side that does not exist. */
const gitlabMode = (mode: string): string => Number.parseInt(mode, 8).toString(8);

function baseDiff(record: RawDiffRecord, side: 'both' | 'old' | 'new'): Omit<FileDiff, 'diff' | 'too_large' | 'collapsed' | 'binary' | 'added_lines' | 'removed_lines'> {
  const isNew = side === 'new' || record.status === 'A';
  const isDeleted = side === 'old' || record.status === 'D';
  return {
    old_path: record.oldPath,
    new_path: record.newPath,
    a_mode: isNew ? '0' : gitlabMode(record.oldMode),
    b_mode: isDeleted ? '0' : gitlabMode(record.newMode),
    new_file: isNew,
    renamed_file: record.status === 'R',
    deleted_file: isDeleted,
    generated_file: false,
    old_id: isNew || ZERO_ID.test(record.oldId) ? '' : record.oldId,
    new_id: isDeleted || ZERO_ID.test(record.newId) ? '' : record.newId,
  };
}

interface Piece {
  base: ReturnType<typeof baseDiff>;
  patch: string;
  /** numstat's counts; null for binary files and for the halves of a type change. */
  counts: { added: number; removed: number } | null;
}

/** One FileDiff per patch; a type change becomes a deletion and an addition, as git prints it. */
function expand(file: FilePatch): Piece[] {
  if (file.record.status !== 'T') {
    const counts = file.added === null || file.removed === null ? null : { added: file.added, removed: file.removed };
    return [{ base: baseDiff(file.record, 'both'), patch: file.patches[0] ?? '', counts }];
  }
  return [
    { base: baseDiff(file.record, 'old'), patch: file.patches[0] ?? '', counts: null },
    { base: baseDiff(file.record, 'new'), patch: file.patches[1] ?? '', counts: null },
  ];
}

function countLines(text: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function buildFileDiffs(files: readonly FilePatch[], limits: DiffLimits = DEFAULT_DIFF_LIMITS): DiffResult {
  const diffs: FileDiff[] = [];
  let overflow = false;
  let lines = 0;
  for (const { base, patch, counts: numstat } of files.flatMap(expand)) {
    if (diffs.length >= limits.maxFiles) {
      overflow = true;
      break;
    }
    const { text, binary } = hunkText(patch);
    const counts = binary ? { added: 0, removed: 0 } : (numstat ?? countLines(text));
    const tooLarge = Buffer.byteLength(patch) > limits.maxPatchBytes;
    const collapsed = tooLarge || lines >= limits.maxLines;
    if (!tooLarge && collapsed) overflow = true;
    if (!collapsed) lines += counts.added + counts.removed;
    diffs.push({ ...base, diff: collapsed ? '' : text, too_large: tooLarge, collapsed, binary, added_lines: counts.added, removed_lines: counts.removed });
  }
  return { diffs, overflow };
}
