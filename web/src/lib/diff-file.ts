/**
 * One file of a diff as the diff viewer needs it: the API entry (GitLab's Entities::Diff)
 * parsed once, its line counts, and which viewer shows it (text, image, binary download,
 * renamed, mode change, submodule, too large, collapsed). Pure.
 */
import { parseDiffHunks, type ParsedDiff } from './diff-hunks';
import { isImageFile } from './file-content';
import type { CommitDiff } from './gitlab-types';

/** git's modes for a submodule (gitlink) and a symbolic link, as GitLab prints them. */
export const SUBMODULE_MODE = '160000';
export const SYMLINK_MODE = '120000';
/** GitLab's default diff_max_patch_bytes: a larger patch is "too large" and cannot be expanded. */
export const DIFF_MAX_PATCH_BYTES = 200 * 1024;
/** Patches above 10% of the maximum start collapsed, with an Expand button (doc/administration/diff_limits.md). */
export const DIFF_COLLAPSE_PATCH_BYTES = DIFF_MAX_PATCH_BYTES / 10;

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1$/;
const BINARY_NOTICE = /^Binary files .* differ$/;

export type DiffViewerKind = 'text' | 'image' | 'binary' | 'renamed' | 'mode-changed' | 'submodule' | 'too-large' | 'collapsed' | 'empty';
export type DiffFileStatus = 'added' | 'deleted' | 'renamed' | 'modified';

export interface DiffFile {
  /** Unique within one diff, also for the two halves of a type change (same path twice). */
  id: string;
  index: number;
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  newFile: boolean;
  deletedFile: boolean;
  renamedFile: boolean;
  /** The hunk text; empty when the server left it out (collapsed, too large) or nothing textual changed. */
  diff: string;
  parsed: ParsedDiff;
  added: number;
  removed: number;
  /** False when the server left the patch out and sent no counts: added and removed are unknown (0). */
  countsKnown: boolean;
  viewer: DiffViewerKind;
  status: DiffFileStatus;
  modeChanged: boolean;
  /** The file is a Git LFS pointer: the diff shows the pointer, the content lives in LFS. */
  lfs: boolean;
  symlink: boolean;
  /** Shown collapsed at first: the server collapsed it, or its patch is over the collapse limit. */
  startsCollapsed: boolean;
  generated: boolean;
}

/** The path a file is known by: the new one, or the old one for a deleted file. */
export function displayPath(file: Pick<DiffFile, 'newPath' | 'oldPath' | 'deletedFile'>): string {
  return file.deletedFile ? file.oldPath : file.newPath;
}

function statusOf(entry: CommitDiff): DiffFileStatus {
  if (entry.new_file) return 'added';
  if (entry.deleted_file) return 'deleted';
  if (entry.renamed_file) return 'renamed';
  return 'modified';
}

export function isLfsPointerDiff(parsed: ParsedDiff): boolean {
  return parsed.hunks.some((hunk) => hunk.lines.some((line) => line.type !== 'delete' && line.type !== 'note' && LFS_POINTER.test(line.text)));
}

function viewerOf(entry: CommitDiff, parsed: ParsedDiff, modeChanged: boolean): DiffViewerKind {
  const path = entry.deleted_file ? entry.old_path : entry.new_path;
  if (entry.too_large) return 'too-large';
  if (entry.a_mode === SUBMODULE_MODE || entry.b_mode === SUBMODULE_MODE) return 'submodule';
  const binary = parsed.preamble.some((line) => BINARY_NOTICE.test(line));
  if (binary || (entry.collapsed && entry.diff === '' && isImageFile(path))) return isImageFile(path) ? 'image' : 'binary';
  if (entry.collapsed && entry.diff === '') return 'collapsed';
  if (parsed.hunks.length === 0) {
    if (entry.renamed_file) return 'renamed';
    if (modeChanged) return 'mode-changed';
    return 'empty';
  }
  return 'text';
}

export function toDiffFile(entry: CommitDiff, index: number): DiffFile {
  const parsed = parseDiffHunks(entry.diff);
  const modeChanged = !entry.new_file && !entry.deleted_file && entry.a_mode !== entry.b_mode;
  const viewer = viewerOf(entry, parsed, modeChanged);
  return {
    id: `diff-file-${index}`,
    index,
    oldPath: entry.old_path,
    newPath: entry.new_path,
    aMode: entry.a_mode,
    bMode: entry.b_mode,
    newFile: entry.new_file,
    deletedFile: entry.deleted_file,
    renamedFile: entry.renamed_file,
    diff: entry.diff,
    parsed,
    added: entry.added_lines ?? parsed.added,
    removed: entry.removed_lines ?? parsed.removed,
    // Binary files have no lines to count; a left-out patch has none to count from.
    countsKnown: viewer !== 'image' && viewer !== 'binary' && (entry.added_lines !== undefined || !(entry.collapsed || entry.too_large) || entry.diff !== ''),
    viewer,
    status: statusOf(entry),
    modeChanged,
    lfs: isLfsPointerDiff(parsed),
    symlink: entry.a_mode === SYMLINK_MODE || entry.b_mode === SYMLINK_MODE,
    // `diff.length` counts UTF-16 units, close enough to bytes for a display threshold.
    startsCollapsed: viewer === 'collapsed' || (viewer === 'text' && entry.diff.length > DIFF_COLLAPSE_PATCH_BYTES),
    generated: entry.generated_file ?? false,
  };
}

export interface DiffTotals {
  files: number;
  added: number;
  removed: number;
}

export function diffTotals(files: readonly Pick<DiffFile, 'added' | 'removed'>[]): DiffTotals {
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added;
    removed += file.removed;
  }
  return { files: files.length, added, removed };
}
