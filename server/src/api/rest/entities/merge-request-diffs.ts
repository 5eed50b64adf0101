import type { DiffVersion } from '../../../domains/merge-requests/merge-request.js';
import type { FileDiff, GitCommit } from '../../../git/index.js';
import { commitEntity, diffEntity, type ProjectPath } from './commits.js';
import type { UrlBuilder } from './users.js';

/** `unidiff=true`: the patch with its `---`/`+++` header lines, as `git diff` prints them. */
export function unifiedDiff(diff: FileDiff): string {
  if (diff.diff === '') return '';
  const before = diff.new_file ? '/dev/null' : `a/${diff.old_path}`;
  const after = diff.deleted_file ? '/dev/null' : `b/${diff.new_path}`;
  return `--- ${before}\n+++ ${after}\n${diff.diff}`;
}

/**
 * Entities::Diff, optionally in unified format, with the file's line counts (not in GitLab's
 * entity): a collapsed or too large file has no text to count them from, and the diff
 * viewer's stats header still shows them.
 */
export function mergeRequestDiffEntity(diff: FileDiff, options: { unidiff?: boolean } = {}) {
  return Object.assign(diffEntity(diff), { added_lines: diff.added_lines, removed_lines: diff.removed_lines }, options.unidiff ? { diff: unifiedDiff(diff) } : {});
}

/** Entities::MergeRequestDiff (GET …/versions). */
export function versionEntity(version: DiffVersion) {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at.toISOString(),
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
    patch_id_sha: null,
  };
}

/** Entities::MergeRequestDiffFull (GET …/versions/:version_id). */
export function versionDetailEntity(version: DiffVersion, commits: GitCommit[], diffs: FileDiff[], project: ProjectPath, urls: UrlBuilder, options: { unidiff?: boolean } = {}) {
  return Object.assign(versionEntity(version), {
    commits: commits.map((commit) => commitEntity(commit, project, urls)),
    diffs: diffs.map((diff) => mergeRequestDiffEntity(diff, options)),
  });
}
