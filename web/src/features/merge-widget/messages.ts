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
  // auto-merge (GitLab's ready_to_merge mixin, auto_merge_enabled.vue, auto_merge_failed.vue)
  setToAutoMerge: 'Set to auto-merge',
  mergeWhenChecksPass: 'Merge when all merge checks pass',
  addToMergeTrainWhenChecksPass: 'Add to merge train when all merge checks pass',
  addToMergeTrain: 'Add to merge train',
  mergeImmediately: 'Merge immediately',
  mergeOptions: 'Select merge moment',
  autoMergeSetBy: 'Set by %{mergeAuthor} to be merged automatically when all merge checks pass',
  autoMergeSetByTrain: 'Set by %{mergeAuthor} to start a merge train when all merge checks pass',
  autoMergeSetByTrainAdd: 'Set by %{mergeAuthor} to be added to the merge train when all merge checks pass',
  addedToMergeTrainBy: 'Added to the merge train by %{mergeAuthor}',
  // GitLab's merge_immediately_confirmation_dialog.vue (a train strategy is preferred: merging now bypasses the train)
  mergeImmediatelyBody:
    "Merging immediately is not recommended because your changes won't be validated by the merge train, and any running merge train pipelines will be restarted. %{docsLinkStart}What are the risks?%{docsLinkEnd}",
  mergeImmediatelyConfirmation: 'Are you sure you want to merge immediately?',
  // the merge-moment dropdown's merge train choices and merge_train_restart_train_confirmation_dialog.vue
  restartTrain: 'Merge now and restart train',
  restartTrainHelp: 'Restart merge train pipelines with the merged changes.',
  restartTrainInfo:
    "Merging immediately is not recommended because your changes won't be validated by the merge train, and any running merge train pipelines will be restarted. %{docsLinkStart}What are the risks?%{docsLinkEnd}.",
  skipTrain: "Merge now and don't restart train",
  skipTrainHelp: 'Merge train pipelines continue without the merged changes.',
  skipTrainInfo:
    'Merging immediately is not recommended. The merged changes could cause pipeline failures on the target branch, and the changes will not be validated against the commits being added by the merge requests currently in the merge train. Read the %{linkStart}documentation%{linkEnd} for more information.',
  // merge_train_failed_pipeline_confirmation_dialog.vue
  startMergeTrain: 'Start merge train',
  trainFailedPipelineInfo: 'The latest pipeline failed for this merge request.',
  trainFailedPipelineConfirmation: 'Do you still want to merge?',
  // GitLab's MergeTrainPosition
  mergeTrainFirst: 'A new merge train has started and this merge request is the first of the queue.',
  mergeTrainPosition: 'This merge request is #%{mergeTrainPosition} of %{total} in queue.',
  viewMergeTrainDetails: 'View merge train details.',
  removedFromMergeTrain: 'Merge request was removed from the merge train.',
  cancelAutoMerge: 'Cancel auto-merge',
  removeFromMergeTrain: 'Remove from merge train',
  autoMergeFailed: 'This merge request failed to be merged automatically',
  refresh: 'Refresh',
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

  // the pipeline container (GitLab's mr_widget_pipeline.vue)
  checkingPipeline: 'Checking pipeline status.',
  pipelineTroubleshooting: 'Get more information about troubleshooting pipelines',
  pipelineStatusError: 'Could not retrieve the pipeline status. For troubleshooting steps, read the %{link}.',
  documentation: 'documentation',
  retargeted: 'You should run a new pipeline, because the target branch has changed for this merge request.',
  runPipeline: 'Run pipeline',
  runPipelineError: 'An error occurred while trying to run a new pipeline for this merge request.',
  runPipelineForbidden: 'You do not have permission to run a pipeline on this branch.',
  learnMore: 'Learn more',
  pipelineFor: 'for',
  pipelineOn: 'on',
  testCoverage: 'Test coverage',
  mergedResultsHelpTitle: 'What is a merged results pipeline?',
  mergedResultsHelp: 'Merged results pipeline runs on the contents of the merge request combined with the contents of the target branch.',
  mergeRequestHelpTitle: 'What is a merge request pipeline?',
  mergeRequestHelp: "Merge request pipeline runs on the contents of the merge request's source branch, not the target branch.",
  mergeTrainHelpTitle: 'What is a merge train pipeline?',
  mergeTrainHelp:
    'Merge train pipeline runs on the contents of the merge request combined with the contents of all other merge requests queued for merging into the target branch.',
  forkMergePipelines: 'If the last pipeline ran in the fork project, it may be inaccurate. Before merge, we advise running a pipeline in this project.',

  // the merge-unverified-changes dialog (GitLab's merge_failed_pipeline_confirmation_dialog.vue)
  unverifiedTitle: 'Merge unverified changes?',
  unverifiedInfo:
    'The merge checks are incomplete because the latest pipeline failed, the pipeline status cannot be verified, or the merge request target branch was changed. You should run a new pipeline before merging.',
  unverifiedConfirmation: 'Are you sure you want to attempt to merge?',
  mergeUnverified: 'Merge unverified changes',

  // the suggestion to add a pipeline (GitLab's mr_widget_suggest_pipeline.vue)
  suggestPipelineTitle: "Looks like there's no pipeline here.",
  suggestPipelineHelp:
    'GitLab %{link} It only takes a few minutes to get started, and we can help you create a pipeline configuration file.',
  suggestPipelineHelpLink: 'CI/CD can automatically build, test, and deploy your application.',
  tryPipelines: 'Try out GitLab Pipelines',
  dismiss: 'Dismiss',

  // per-check actions
  markAsReady: 'Mark as ready',
  editMergeRequest: 'Edit merge request',
} as const;
