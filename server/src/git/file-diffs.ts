/**
 * Turns parsed diff-tree output into GitLab's diff objects and applies GitLab's diff limits
 * (doc/administration/diff_limits, Gitlab::Git::Diff): a file whose patch reaches
 * `diff_max_patch_bytes` (200 KB) is too large, one that reaches a tenth of it starts
 * collapsed in merge request views, a diff stops at 1000 files and collapses the files after
 * 50 000 lines. Pure: the limits and their effects are tested without git.
 *
 * "Patch bytes" are the bytes of the hunk text GitLab returns as `diff` (Gitlab::Git::Diff
 * measures `@diff.bytesize`), the same whether git printed the patch or its size was worked
 * out from blob sizes (diff-size.ts), so a stored version and a regenerated page agree.
 */
import { hunkText, type FilePatch, type RawDiffRecord } from './diff-format.js';

export const DIFF_MAX_PATCH_BYTES = 200 * 1024;
/** GitLab's patch_safe_limit_bytes: a tenth of the maximum. */
export const DIFF_COLLAPSE_PATCH_BYTES = DIFF_MAX_PATCH_BYTES / 10;
export const DIFF_MAX_FILES = 1000;
export const DIFF_MAX_LINES = 50_000;

export interface DiffLimits {
  /** A file whose patch is at least this large is returned with `too_large: true` and no diff text. */
  maxPatchBytes: number;
  /**
   * A file whose patch is at least this large starts `collapsed: true` without its text (its
   * line counts stay). Merge request views set it; GitLab's compare and commit diff APIs
   * expand every file, so they leave it out.
   */
  collapsePatchBytes?: number;
  /** Files beyond this many are left out and `overflow` is set. */
  maxFiles: number;
  /** Once this many lines were returned, further files are collapsed and `overflow` is set. */
  maxLines: number;
  /** Patch output git may write before it is stopped and every file is listed without text. */
  maxOutputBytes?: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxPatchBytes: DIFF_MAX_PATCH_BYTES, maxFiles: DIFF_MAX_FILES, maxLines: DIFF_MAX_LINES };
/** A merge request's versions and pages: GitLab's limits with size collapsing. */
export const MERGE_REQUEST_DIFF_LIMITS: DiffLimits = { ...DEFAULT_DIFF_LIMITS, collapsePatchBytes: DIFF_COLLAPSE_PATCH_BYTES };
/** No limit at all: every file with its text (a single file asked for, a page whose flags are already known). */
export const NO_DIFF_LIMITS: DiffLimits = { maxPatchBytes: Number.POSITIVE_INFINITY, maxFiles: Number.POSITIVE_INFINITY, maxLines: Number.POSITIVE_INFINITY };

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

export type BaseDiff = Omit<FileDiff, 'diff' | 'too_large' | 'collapsed' | 'binary' | 'added_lines' | 'removed_lines'>;

/** One file of a diff before the limits: what it is, its counts and its patch (or only the patch's size). */
export interface DiffPiece {
  base: BaseDiff;
  /** The hunk text; null when only its size is known. */
  text: string | null;
  /** Bytes of the hunk text, or any count in the same limit band (see diff-size.ts). */
  bytes: number;
  binary: boolean;
  added: number;
  removed: number;
}

const ZERO_ID = /^0+$/;

/** GitLab prints modes without leading zeros: `100644`, `0` for a side that does not exist. */
const gitlabMode = (mode: string): string => Number.parseInt(mode, 8).toString(8);

/** One side of a type change, or the whole record. */
export type DiffSide = 'both' | 'old' | 'new';

export function baseDiff(record: RawDiffRecord, side: DiffSide): BaseDiff {
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

/** Stored rows, pieces and page diffs are the same file when these keys agree (a type change's halves differ). */
export function diffFileKey(file: Pick<FileDiff, 'old_path' | 'new_path' | 'new_file' | 'deleted_file'>): string {
  return `${file.new_file ? 'A' : file.deleted_file ? 'D' : 'M'}\0${file.old_path}\0${file.new_path}`;
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

/** One piece per patch; a type change becomes a deletion and an addition, as git prints it. */
export function patchPieces(files: readonly FilePatch[]): DiffPiece[] {
  const pieces: DiffPiece[] = [];
  for (const file of files) {
    const halves: Array<[DiffSide, string]> = file.record.status === 'T' ? [['old', file.patches[0] ?? ''], ['new', file.patches[1] ?? '']] : [['both', file.patches[0] ?? '']];
    for (const [side, patch] of halves) {
      const { text, binary } = hunkText(patch);
      // numstat's counts are the whole record's; a type change's halves count their own text.
      const numstat = side === 'both' && file.added !== null && file.removed !== null ? { added: file.added, removed: file.removed } : null;
      const counts = binary ? { added: 0, removed: 0 } : (numstat ?? countLines(text));
      pieces.push({ base: baseDiff(file.record, side), text, bytes: Buffer.byteLength(text), binary, added: counts.added, removed: counts.removed });
    }
  }
  return pieces;
}

/** GitLab's limits over pieces in git's order. */
export function applyDiffLimits(pieces: readonly DiffPiece[], limits: DiffLimits = DEFAULT_DIFF_LIMITS): DiffResult {
  const diffs: FileDiff[] = [];
  let overflow = false;
  let lines = 0;
  for (const piece of pieces) {
    if (diffs.length >= limits.maxFiles) {
      overflow = true;
      break;
    }
    const tooLarge = piece.bytes >= limits.maxPatchBytes;
    const sizeCollapsed = tooLarge || (limits.collapsePatchBytes !== undefined && piece.bytes >= limits.collapsePatchBytes);
    const lineCollapsed = !sizeCollapsed && lines >= limits.maxLines;
    if (lineCollapsed) overflow = true;
    const collapsed = sizeCollapsed || lineCollapsed;
    if (!collapsed) lines += piece.added + piece.removed;
    diffs.push({
      ...piece.base,
      diff: collapsed ? '' : (piece.text ?? ''),
      too_large: tooLarge,
      collapsed,
      binary: piece.binary,
      added_lines: piece.added,
      removed_lines: piece.removed,
    });
  }
  return { diffs, overflow };
}

/**
 * A recorded file shown with its text after all collapses when the text reaches the collapse
 * limit: a version records a patch near that limit below it, since only the text can tell
 * (diff-size.ts, recordedPatchBytes), and every read prints that text anyway.
 */
export function collapsesOnRead(text: string, limits: DiffLimits): boolean {
  return limits.collapsePatchBytes !== undefined && Buffer.byteLength(text) >= limits.collapsePatchBytes;
}

export function buildFileDiffs(files: readonly FilePatch[], limits: DiffLimits = DEFAULT_DIFF_LIMITS): DiffResult {
  return applyDiffLimits(patchPieces(files), limits);
}
