import type { MergeRequestWidgetData, MergeRequestWidgetProject } from './merge-widget.js';

/**
 * The one example of MERGE_REQUEST_WIDGET_QUERY's answer that both sides test against: an open,
 * mergeable merge request of a project with default settings, as the server answers it and as the
 * web app's widget tests serve it. Each test changes what it is about (`change`). Test code only
 * (left out of the package's build).
 */
export function openMergeRequestWidget(change: Partial<MergeRequestWidgetData> = {}): MergeRequestWidgetData {
  return {
    id: 'gid://gitlab/MergeRequest/70',
    iid: '7',
    title: 'Add search',
    state: 'opened',
    draft: false,
    detailedMergeStatus: 'MERGEABLE',
    mergeabilityChecks: [
      { identifier: 'CONFLICT', status: 'SUCCESS' },
      { identifier: 'DRAFT_STATUS', status: 'SUCCESS' },
    ],
    commitCount: 2,
    commitsWithoutMergeCommits: { nodes: [] },
    defaultMergeCommitMessage: "Merge branch 'feature' into 'main'",
    defaultSquashCommitMessage: 'Add search',
    shouldRemoveSourceBranch: true,
    forceRemoveSourceBranch: false,
    squash: false,
    squashOnMerge: false,
    squashReadOnly: false,
    diffHeadSha: 'a'.repeat(40),
    sourceBranch: 'feature',
    targetBranch: 'main',
    sourceBranchExists: true,
    targetBranchExists: true,
    divergedCommitsCount: 0,
    rebaseInProgress: false,
    mergeOngoing: false,
    mergeError: null,
    mergeUser: null,
    autoMergeEnabled: false,
    autoMergeStrategy: null,
    availableAutoMergeStrategies: [],
    preferredAutoMergeStrategy: null,
    mergeTrainCar: null,
    mergeTrainsCount: null,
    mergedAt: null,
    mergeCommitSha: null,
    squashCommitSha: null,
    allowCollaboration: false,
    retargeted: false,
    hasCi: false,
    headPipeline: null,
    mergePipeline: null,
    pipelineCoverageDelta: null,
    buildsWithCoverage: [],
    mergePipelinesForkWarning: false,
    pipelineRetargetedWarning: null,
    mergedBy: null,
    closedBy: null,
    closedAt: null,
    blockingMergeRequests: { nodes: [] },
    approved: true,
    approvalsLeft: 0,
    approvalsRequired: 0,
    approvedBy: { nodes: [] },
    approvalState: { approvalRulesOverwritten: false, invalidApproversRules: [], suggestedApprovers: { nodes: [] }, rules: [] },
    userPermissions: {
      canApprove: false,
      canMerge: true,
      removeSourceBranch: true,
      updateMergeRequest: true,
      adminMergeRequest: false,
      pushToSourceBranch: true,
      revertOnCurrentMergeRequest: false,
      cherryPickOnCurrentMergeRequest: false,
    },
    ...change,
  };
}

/** The widget query's project around `mergeRequest`: default merge settings. */
export function widgetProjectOf(mergeRequest: MergeRequestWidgetData | null, change: Partial<MergeRequestWidgetProject> = {}): MergeRequestWidgetProject {
  return {
    id: 'gid://gitlab/Project/1',
    fullPath: 'acme/app',
    archived: false,
    mergeMethod: 'MERGE',
    mergeRequestsFfOnlyEnabled: false,
    onlyAllowMergeIfPipelineSucceeds: false,
    allowMergeOnSkippedPipeline: false,
    ciCdSettings: { mergePipelinesEnabled: false, mergeTrainsSkipTrainAllowed: false },
    squashOption: 'default_off',
    mergeRequest,
    ...change,
  };
}
