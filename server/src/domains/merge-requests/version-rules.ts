/**
 * When a merge request gets a new diff version, and what a version records. Pure.
 *
 * GitLab's rules (MergeRequests::RefreshService, ReloadDiffsService): a push that moves the
 * source branch records a version; a push to the target branch does not (the diff stays
 * what was reviewed; mergeability is rechecked instead); changing the target branch records
 * one, since start and base change. Closed and merged requests keep their last version.
 */
import { diffFileKey, type FileDiff } from '../../git/index.js';
import type { DiffFileRow, DiffVersion, DiffVersionState, MergeRequestState } from './merge-request.js';

export type VersionDecision = 'record' | 'unchanged' | 'not-open' | 'source-missing' | 'target-missing';

export interface VersionFacts {
  state: MergeRequestState;
  latest: Pick<DiffVersion, 'head_commit_sha' | 'start_commit_sha'> | null;
  /** current tip of the source branch, null when the branch is gone */
  sourceHead: string | null;
  /** current tip of the target branch, null when the branch is gone */
  targetHead: string | null;
  /** the target branch changed (retarget) */
  retargeted: boolean;
}

export function decideVersion(facts: VersionFacts): VersionDecision {
  if (facts.state !== 'opened') return 'not-open';
  if (facts.sourceHead === null) return 'source-missing';
  if (facts.targetHead === null) return 'target-missing';
  if (facts.latest === null) return 'record';
  if (facts.latest.head_commit_sha !== facts.sourceHead) return 'record';
  if (facts.retargeted && facts.latest.start_commit_sha !== facts.targetHead) return 'record';
  return 'unchanged';
}

/** One stored row per file of git's diff, in git's order. */
export function fileRows(diffs: readonly FileDiff[]): DiffFileRow[] {
  return diffs.map((diff, index) => ({
    relative_order: index,
    old_path: diff.old_path,
    new_path: diff.new_path,
    a_mode: diff.a_mode,
    b_mode: diff.b_mode,
    new_file: diff.new_file,
    renamed_file: diff.renamed_file,
    deleted_file: diff.deleted_file,
    too_large: diff.too_large,
    collapsed: diff.collapsed,
    binary: diff.binary,
    old_blob_id: diff.old_id,
    new_blob_id: diff.new_id,
    added_lines: diff.added_lines,
    removed_lines: diff.removed_lines,
  }));
}

export interface VersionSummary {
  state: DiffVersionState;
  /** GitLab's real_size (and the MR's changes_count): the file count, `N+` when cut off */
  real_size: string;
  files_count: number;
  added_lines: number;
  removed_lines: number;
}

export function summarizeVersion(diffs: readonly FileDiff[], overflow: boolean): VersionSummary {
  const state: DiffVersionState = overflow ? 'overflow' : diffs.length === 0 ? 'empty' : 'collected';
  return {
    state,
    real_size: overflow ? `${diffs.length}+` : String(diffs.length),
    files_count: diffs.length,
    added_lines: diffs.reduce((sum, diff) => sum + diff.added_lines, 0),
    removed_lines: diffs.reduce((sum, diff) => sum + diff.removed_lines, 0),
  };
}

/** Stored rows and git's page diffs are the same files when these keys agree. */
export function fileKey(file: Pick<DiffFileRow, 'old_path' | 'new_path' | 'new_file' | 'deleted_file'>): string {
  return diffFileKey(file);
}
