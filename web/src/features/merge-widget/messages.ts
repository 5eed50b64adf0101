/**
 * Every string the merge widget shows, word for word as GitLab shows it (or, where GitLab names a
 * text without quoting it, as GitLab's merge request widget writes it). They go through
 * `t()` / `n()` from @tributary/contracts where they are shown.
 */
export const MSG = {
  // error catalogue
  loadError: 'Unable to load the merge request widget. Try reloading the page.',
  genericError: 'Something went wrong. Please try again.',
  mergeErrorBanner: '%{mergeError}. Try again.',
  namespaceStorageFull: 'Your namespace storage is full',
  manageStorage: 'To continue, manage your storage usage.',
  deleteBranchPollError: 'Something went wrong while deleting the source branch. Please try again.',
  rebaseScheduled: 'Scheduled a rebase of branch %{branch}.',
  rebaseFailed: 'Failed to rebase. Please try again.',
  /** The reopen failure, in this panel and in the page header */
  reopenError: 'An error occurred. Unable to reopen this merge request.',
  mergeFailed: 'Merge failed.',
  archived: 'Merge unavailable: merge requests are read-only on archived projects.',
  missingBranch: 'The %{type} branch %{name} does not exist.',
  missingBranchRestore: 'Please restore it or use a different %{type} branch.',
  missingBranchManual:
    'If the %{type} branch exists in your local repository, you can merge this merge request manually using the command line.',

  // widget areas
  collaboration: 'Members who can merge are allowed to add commits.',
  notAllowedToMerge: 'Ready to merge by members who can write to the target branch.',
  readyToMerge: 'Ready to merge!',
  blockingHeading: 'Blocking merge requests',
  mergeDetails: 'Merge details',

  // merge checks block
  checksBlockedOne: 'Merge blocked: %{count} check failed',
  checksBlockedMany: 'Merge blocked: %{count} checks failed',
  checksChecking: 'Checking if merge request can be merged…',
  checksCaution: 'Merge with caution: Override added',
  expandChecks: 'Expand merge checks',
  collapseChecks: 'Collapse merge checks',

  // state panels (GitLab's texts)
  preparing: 'Your merge request is almost ready!',
  checking: 'Checking if merge request can be merged…',
  nothingToMerge: 'This merge request contains no changes.',
  nothingToMergeHelp:
    'Use merge requests to propose changes to your project and discuss them with your team. To make changes, push a commit or edit this merge request to use a different branch.',
  shaMismatch: 'Merge blocked: new changes were just added.',
  reviewChanges: 'Review changes',
  closed: 'Closed',
  closedBy: 'Closed by %{name}',
  reopen: 'Reopen',
  merged: 'Merged',
  mergedBy: 'Merged by %{name}',
  refreshingIn: 'Refreshing in a second to show the updated status...',
  refreshingInMany: 'Refreshing in %d seconds to show the updated status...',
  refreshNow: 'Refresh now',
  refreshingNow: 'Refreshing now',

  // merged panel
  sourceBranchWillBeDeleted: 'Source branch will be deleted.',
  sourceBranchWillNotBeDeleted: 'Source branch will not be deleted.',
  sourceBranchDeleted: 'Deleted the source branch.',
  sourceBranchNotDeleted: 'Did not delete the source branch.',
  sourceBranchBeingDeleted: 'The source branch is being deleted.',

  // ready-to-merge panel
  /** the ready panel's option and the merged panel's button */
  deleteSourceBranch: 'Delete source branch',
  squashCommits: 'Squash commits',
  squashRequired: 'Required in this project.',
  whatIsSquashing: 'What is squashing?',
  squashHelp:
    'Squashing combines all the commits of this merge request into one commit on the target branch, with the squash commit message.',
  editCommitMessage: 'Edit commit message',
  squashCommitMessage: 'Squash commit message',
  mergeCommitMessage: 'Merge commit message',
  divergence: '%{link} the target branch',
  commitsBehindOne: '%d commit behind',
  commitsBehindMany: '%d commits behind',
  rebaseSourceBranch: 'Rebase source branch',
  rebaseInProgress: 'Rebase in progress',
  rebaseDialogTitle: 'Rebase source branch?',
  rebaseDialogBody: 'This will rebase all commits from the source branch onto the target branch.',
  rebase: 'Rebase',
  cancel: 'Cancel',
  mergeInProgress: 'Merge in progress',
  mergeEllipsis: 'Merge…',
  merge: 'Merge',

  // summary of commits (GitLab's mrWidgetCommitsAdded)
  commitOne: '%d commit',
  commitMany: '%d commits',
  oneMergeCommit: '1 merge commit',
  willBeAddedFf: '%{commitCount} will be added to %{targetBranch}.',
  willBeAdded: '%{commitCount} and %{mergeCommitCount} will be added to %{targetBranch}%{squashedCommits}.',
  squashesOne: ' (squashes %d commit)',
  squashesMany: ' (squashes %d commits)',
  mergedInto: 'Changes merged into %{targetBranch} with %{mergeCommitSha}%{squashedCommits}.',
  commitsWereSquashed: ' (commits were squashed)',
  notMergedInto: 'The changes were not merged into %{targetBranch}.',

  // per-check actions
  markAsReady: 'Mark as ready',
  editMergeRequest: 'Edit merge request',
} as const;
