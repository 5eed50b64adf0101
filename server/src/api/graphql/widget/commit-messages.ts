import type { MergeRequest } from '../../../domains/merge-requests/merge-request.js';

/**
 * The default commit messages the widget offers to edit, as GitLab writes them without a
 * project template (MergeRequest#default_merge_commit_message, #default_squash_commit_message).
 * Closing-issue references join when issues exist. Pure.
 */
export function defaultMergeCommitMessage(mergeRequest: Pick<MergeRequest, 'source_branch' | 'target_branch' | 'title' | 'target_full_path' | 'iid'>): string {
  return [
    `Merge branch '${mergeRequest.source_branch}' into '${mergeRequest.target_branch}'`,
    mergeRequest.title,
    `See merge request ${mergeRequest.target_full_path}!${mergeRequest.iid}`,
  ].join('\n\n');
}

export function defaultSquashCommitMessage(mergeRequest: Pick<MergeRequest, 'title'>): string {
  return mergeRequest.title;
}
