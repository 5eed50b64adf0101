/**
 * What merging and rebasing answer, in GitLab's words (lib/api/merge_requests.rb,
 * app/services/merge_requests/merge_service.rb, rebase_service.rb, MergeRequest's rebase lock).
 */
export const MERGE_MESSAGES = {
  /** 409 when the `sha` sent is not the source head (check_sha_param!). */
  shaMismatch: 'SHA does not match HEAD of source branch: %{sha}',
  /** 422 when the merge itself failed. */
  cannotMerge: 'Branch cannot be merged',
  /** merge_error when the checks failed during the merge (the target moved and it no longer merges) */
  notMergeable: 'Merge request is not mergeable',
  /** merge_error when a fast-forward became impossible during the merge */
  fastForwardOnly: 'Only fast-forward merge is allowed for your project. Please update your source branch',
  /** merge_error when the merge itself broke (git failed, the merge was interrupted) */
  somethingWrong: 'Something went wrong during merge: %{message}',
} as const;

export const REBASE_MESSAGES = {
  /** the widget's merge_error after a failed rebase */
  failed: 'Rebase failed. Please rebase locally',
  /** 409 (MergeRequest::REBASE_LOCK_MESSAGE) when a rebase is already running or the request is not open */
  lock: 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.',
  /** 403 reasons (RebaseService#validate), sent as "403 Forbidden - <reason>" */
  sourceMissing: 'Source branch does not exist',
  cannotPush: 'Cannot push to source branch',
  protectedFromForcePush: 'Source branch is protected from force push',
} as const;
