/**
 * The pure rules of a merge: whether to squash, whether the method needs the target to be an
 * ancestor of the source head, and which commits the merge writes. GitLab's
 * MergeRequest#squash_on_merge?, ff_merge_must_be_possible? and its merge strategies.
 */
export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';
export type SquashOption = 'never' | 'always' | 'default_on' | 'default_off';

/**
 * "Do not allow" never squashes (a `squash=true` request is ignored, as GitLab does), "Require"
 * always squashes, "Allow" and "Encourage" follow the request, else the merge request's setting.
 */
export function squashOnMerge(option: SquashOption, requested: boolean | undefined, mergeRequestSquash: boolean): boolean {
  if (option === 'never') return false;
  if (option === 'always') return true;
  return requested ?? mergeRequestSquash;
}

/**
 * Who deletes the source branch once the merge landed, or null to keep it (GitLab's
 * should_remove_source_branch, else the request's own "delete source branch" setting). When
 * only the request's setting asks, the author deletes it (it was their choice), else the merger.
 * Whether they may (protected, default branch, push rights) is decided after the merge.
 */
export function sourceBranchDeleter(
  mergeRequest: { force_remove_source_branch: boolean | null; author_id: number | null },
  shouldRemoveSourceBranch: boolean | null | undefined,
  mergerId: number | null,
): number | null {
  const remove = shouldRemoveSourceBranch ?? mergeRequest.force_remove_source_branch;
  if (!remove) return null;
  return mergeRequest.force_remove_source_branch ? (mergeRequest.author_id ?? mergerId) : mergerId;
}

/** Semi-linear history and fast-forward both need the target to be an ancestor of the source head. */
export function requiresFastForwardPossible(method: MergeMethod): boolean {
  return method === 'rebase_merge' || method === 'ff';
}

/** What lands on the target branch. */
export interface MergeShape {
  /** a squash commit (the request's changes as one commit on top of the merge base) comes first */
  squash: boolean;
  /** a merge commit with parents [target, head or squash]; false: the target fast-forwards */
  mergeCommit: boolean;
}

export function mergeShape(method: MergeMethod, squash: boolean): MergeShape {
  return { squash, mergeCommit: method !== 'ff' };
}

/** The merge_error for a request whose checks fail only once the target moved under the merge. */
export function blockedDuringMergeReason(status: string): 'fastForwardOnly' | 'notMergeable' {
  return status.toUpperCase() === 'NEED_REBASE' ? 'fastForwardOnly' : 'notMergeable';
}
