/**
 * The merge widget's contract between the server (GraphQL at /api/graphql and the
 * REST widget endpoint) and the web app. Names follow GitLab's GraphQL schema, so
 * GitLab tools that read these fields work unchanged.
 */

/** GitLab's `DetailedMergeStatus` enum (GraphQL spelling; REST uses the lower-case form). */
export const DETAILED_MERGE_STATUSES = [
  'UNCHECKED',
  'CHECKING',
  'PREPARING',
  'MERGEABLE',
  'NOT_OPEN',
  'DRAFT_STATUS',
  'CONFLICT',
  'NEED_REBASE',
  'COMMITS_STATUS',
  'TITLE_REGEX',
  'BLOCKED_STATUS',
  'DISCUSSIONS_NOT_RESOLVED',
  'REQUESTED_CHANGES',
  'NOT_APPROVED',
  'CI_MUST_PASS',
  'CI_STILL_RUNNING',
  'EXTERNAL_STATUS_CHECKS',
] as const;
export type DetailedMergeStatus = (typeof DETAILED_MERGE_STATUSES)[number];

/** The checks a merge request reports (GitLab's `MergeabilityCheckIdentifier`). */
export const MERGEABILITY_CHECK_IDENTIFIERS = [
  'NOT_OPEN',
  'DRAFT_STATUS',
  'COMMITS_STATUS',
  'CONFLICT',
  'NEED_REBASE',
  'TITLE_REGEX',
  // GitLab's order: change requests, then approvals, then dependencies
  'REQUESTED_CHANGES',
  'NOT_APPROVED',
  'BLOCKED_STATUS',
  'DISCUSSIONS_NOT_RESOLVED',
  // a pipeline that has not finished names the status before one that did not succeed
  'CI_STILL_RUNNING',
  'CI_MUST_PASS',
  'EXTERNAL_STATUS_CHECKS',
] as const;
export type MergeabilityCheckIdentifier = (typeof MERGEABILITY_CHECK_IDENTIFIERS)[number];

export const MERGEABILITY_CHECK_STATUSES = ['CHECKING', 'FAILED', 'WARNING', 'SUCCESS', 'INACTIVE'] as const;
export type MergeabilityCheckStatus = (typeof MERGEABILITY_CHECK_STATUSES)[number];

export interface MergeabilityCheck {
  identifier: MergeabilityCheckIdentifier;
  status: MergeabilityCheckStatus;
}

export type MergeRequestStateName = 'opened' | 'closed' | 'merged' | 'locked';

export interface WidgetUser {
  id: string;
  username: string;
  name: string;
  webUrl: string;
  avatarUrl: string | null;
}

/** A pipeline's detailed status (GitLab's DetailedStatus type), as the widget shows it. */
export interface WidgetDetailedStatus {
  icon: string | null;
  text: string | null;
  label: string | null;
  group: string | null;
}

/**
 * The merge request's pipeline for its diff head (GitLab's headPipeline: merge request
 * pipelines first). `status` is GitLab's upper-case PipelineStatusEnum.
 */
export interface WidgetHeadPipeline {
  id: string;
  iid: string;
  /** the commit it ran for */
  sha: string;
  /** the ref it ran on (a merge request pipeline's is refs/merge-requests/:iid/head or …/merge) */
  ref: string | null;
  /** the project it ran in (a fork's pipeline runs in the fork) */
  project: { id: string; fullPath: string } | null;
  finishedAt: string | null;
  status: string;
  active: boolean;
  path: string | null;
  coverage: number | null;
  /** 'DETACHED' | 'MERGED_RESULT' | 'MERGE_TRAIN', or null for a branch pipeline */
  mergeRequestEventType: 'DETACHED' | 'MERGED_RESULT' | 'MERGE_TRAIN' | null;
  /** the explanation title: 'Merged results pipeline', 'Merge request pipeline' (or 'Pipeline') */
  eventTypeName: string;
  detailedStatus: WidgetDetailedStatus;
  stages: { nodes: { name: string | null; status: string | null; detailedStatus: WidgetDetailedStatus | null }[] } | null;
}

/** GitLab's ApprovalRuleType (the rules table: code owners first, then name and section). */
export type ApprovalRuleTypeName = 'REGULAR' | 'CODE_OWNER' | 'REPORT_APPROVER' | 'ANY_APPROVER';

/** One approval rule as the widget's approvals section shows it. */
export interface WidgetApprovalRule {
  id: string | null;
  name: string;
  type: ApprovalRuleTypeName;
  section: string | null;
  approved: boolean;
  approvalsRequired: number;
  invalid: boolean;
  allowMergeWhenInvalid: boolean;
  fallback: boolean;
  reportType: string | null;
  approvedBy: { nodes: WidgetUser[] };
  eligibleApprovers: WidgetUser[];
}

/** The approvals section: summary, rules, Approve / Revoke. */
export interface WidgetApprovalState {
  approvalRulesOverwritten: boolean;
  invalidApproversRules: { id: string | null }[];
  suggestedApprovers: { nodes: WidgetUser[] };
  rules: WidgetApprovalRule[];
}

/** What the page shows for a rule: invalid ones are auto approved when merging past them is allowed, else need action. */
export function approvalRuleState(rule: Pick<WidgetApprovalRule, 'approved' | 'invalid' | 'allowMergeWhenInvalid'>): 'approved' | 'auto_approved' | 'action_required' | 'pending' {
  if (rule.invalid) return rule.allowMergeWhenInvalid ? 'auto_approved' : 'action_required';
  return rule.approved ? 'approved' : 'pending';
}

/** What MERGE_REQUEST_WIDGET_QUERY answers for `project.mergeRequest`. */
export interface MergeRequestWidgetData {
  id: string;
  iid: string;
  title: string;
  state: MergeRequestStateName;
  draft: boolean;
  detailedMergeStatus: DetailedMergeStatus;
  mergeabilityChecks: MergeabilityCheck[];
  commitCount: number;
  commitsWithoutMergeCommits: { nodes: { sha: string; shortId: string; title: string; message: string }[] };
  defaultMergeCommitMessage: string | null;
  defaultSquashCommitMessage: string | null;
  shouldRemoveSourceBranch: boolean | null;
  forceRemoveSourceBranch: boolean;
  squash: boolean;
  squashOnMerge: boolean;
  squashReadOnly: boolean;
  diffHeadSha: string | null;
  sourceBranch: string;
  targetBranch: string;
  sourceBranchExists: boolean;
  targetBranchExists: boolean;
  /** commits on the target branch that the source branch lacks */
  divergedCommitsCount: number;
  rebaseInProgress: boolean;
  /** a merge is running (GitLab's merge_ongoing) */
  mergeOngoing: boolean;
  mergeError: string | null;
  mergeUser: WidgetUser | null;
  /** auto-merge is set (it waits for the checks; or its merge failed, then mergeError says why) */
  autoMergeEnabled: boolean;
  /** merge_when_checks_pass, add_to_merge_train_when_checks_pass or merge_train, while set */
  autoMergeStrategy: string | null;
  /** what the viewer could set now, in GitLab's priority order; the first is the preferred one */
  availableAutoMergeStrategies: string[];
  preferredAutoMergeStrategy: string | null;
  /** the request's car while it is on a merge train (index 0: the front car; GitLab's MergeTrainPosition), else null */
  mergeTrainCar: { id: string; index: number | null; user: WidgetUser | null } | null;
  /** the cars on the target branch's merge train; null without merge trains */
  mergeTrainsCount: number | null;
  mergedAt: string | null;
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
  allowCollaboration: boolean;
  retargeted: boolean;
  mergedBy: WidgetUser | null;
  closedBy: WidgetUser | null;
  closedAt: string | null;
  /** the request has a pipeline (GitLab's has_ci?) */
  hasCi: boolean;
  /** null without a pipeline for the diff head, or for a caller who may not read pipelines */
  headPipeline: WidgetHeadPipeline | null;
  /** a merged request's post-merge pipeline: the target branch's pipeline for the merge commit (REST merge_pipeline) */
  mergePipeline: WidgetHeadPipeline | null;
  /** the head pipeline's coverage minus the base pipeline's ('%.2f', GitLab's pipeline_coverage_delta); null unless both have one */
  pipelineCoverageDelta: string | null;
  /** the head pipeline's latest jobs with a coverage (GitLab's builds_with_coverage) */
  buildsWithCoverage: { name: string; coverage: number }[];
  /** merged results pipelines are on and the source is a fork: its pipelines run in the fork, on the head */
  mergePipelinesForkWarning: boolean;
  /** 'You should run a new pipeline, because the target branch has changed for this merge request.' after a retarget, or null */
  pipelineRetargetedWarning: string | null;
  /** merge requests that must be merged first (BLOCKED_STATUS) */
  blockingMergeRequests: { nodes: { iid: string; title: string; state: MergeRequestStateName; webUrl: string; reference: string }[] };
  /** every approval rule is approved */
  approved: boolean;
  approvalsLeft: number | null;
  approvalsRequired: number | null;
  approvedBy: { nodes: WidgetUser[] };
  approvalState: WidgetApprovalState;
  /** users whose email is a committer email of the merge request's commits ("Why can't I approve?") */
  committers?: { nodes: Pick<WidgetUser, 'id' | 'username'>[] };
  userPermissions: {
    /** the caller may approve now ('Approve' shows; 'Revoke' shows when they approved and cannot) */
    canApprove: boolean;
    canMerge: boolean;
    removeSourceBranch: boolean;
    updateMergeRequest: boolean;
    adminMergeRequest: boolean;
    pushToSourceBranch: boolean;
    revertOnCurrentMergeRequest: boolean;
    cherryPickOnCurrentMergeRequest: boolean;
  };
}

export interface MergeRequestWidgetProject {
  id: string;
  fullPath: string;
  archived: boolean;
  /** 'MERGE' | 'REBASE_MERGE' | 'FF' (GitLab's MergeMethod) */
  mergeMethod: 'MERGE' | 'REBASE_MERGE' | 'FF';
  mergeRequestsFfOnlyEnabled: boolean;
  onlyAllowMergeIfPipelineSucceeds: boolean;
  /** "Skipped pipelines are considered successful" */
  allowMergeOnSkippedPipeline: boolean;
  /** mergePipelinesEnabled: merged results pipelines; mergeTrainsSkipTrainAllowed: 'Merge now and don't restart train' may be offered */
  ciCdSettings: { mergePipelinesEnabled: boolean; mergeTrainsSkipTrainAllowed: boolean | null } | null;
  /** 'never' | 'always' | 'default_on' | 'default_off' */
  squashOption: 'never' | 'always' | 'default_on' | 'default_off';
  /** committers of a merge request may not approve it */
  mergeRequestsDisableCommittersApproval?: boolean;
  mergeRequest: MergeRequestWidgetData | null;
}

export interface MergeRequestWidgetQueryResult {
  project: MergeRequestWidgetProject | null;
}

const USER_FIELDS = 'id username name webUrl avatarUrl';
const STATUS_FIELDS = 'icon text label group';
const PIPELINE_FIELDS = `
  id
  iid
  sha
  ref
  project { id fullPath }
  finishedAt
  status
  active
  path
  coverage
  mergeRequestEventType
  eventTypeName
  detailedStatus { ${STATUS_FIELDS} }
  stages { nodes { name status detailedStatus { ${STATUS_FIELDS} } } }
`;

/** The one query the widget makes; the server's schema must answer every field of it. */
export const MERGE_REQUEST_WIDGET_QUERY = /* GraphQL */ `
  query mergeRequestWidget($projectPath: ID!, $iid: String!) {
    project(fullPath: $projectPath) {
      id
      fullPath
      archived
      mergeMethod
      mergeRequestsFfOnlyEnabled
      onlyAllowMergeIfPipelineSucceeds
      allowMergeOnSkippedPipeline
      ciCdSettings { mergePipelinesEnabled mergeTrainsSkipTrainAllowed }
      squashOption
      mergeRequestsDisableCommittersApproval
      mergeRequest(iid: $iid) {
        id
        iid
        title
        state
        draft
        detailedMergeStatus
        mergeabilityChecks { identifier status }
        commitCount
        commitsWithoutMergeCommits { nodes { sha shortId title message } }
        defaultMergeCommitMessage
        defaultSquashCommitMessage
        shouldRemoveSourceBranch
        forceRemoveSourceBranch
        squash
        squashOnMerge
        squashReadOnly
        diffHeadSha
        sourceBranch
        targetBranch
        sourceBranchExists
        targetBranchExists
        divergedCommitsCount
        rebaseInProgress
        mergeOngoing
        mergeError
        mergeUser { ${USER_FIELDS} }
        autoMergeEnabled
        autoMergeStrategy
        availableAutoMergeStrategies
        preferredAutoMergeStrategy
        mergeTrainCar { id index user { ${USER_FIELDS} } }
        mergeTrainsCount
        mergedAt
        mergeCommitSha
        squashCommitSha
        allowCollaboration
        retargeted
        mergedBy { ${USER_FIELDS} }
        closedBy { ${USER_FIELDS} }
        closedAt
        blockingMergeRequests { nodes { iid title state webUrl reference } }
        hasCi
        headPipeline { ${PIPELINE_FIELDS} }
        mergePipeline { ${PIPELINE_FIELDS} }
        pipelineCoverageDelta
        buildsWithCoverage { name coverage }
        mergePipelinesForkWarning
        pipelineRetargetedWarning
        approved
        approvalsLeft
        approvalsRequired
        approvedBy { nodes { ${USER_FIELDS} } }
        approvalState {
          approvalRulesOverwritten
          invalidApproversRules { id }
          suggestedApprovers { nodes { ${USER_FIELDS} } }
          rules {
            id name type section approved approvalsRequired invalid allowMergeWhenInvalid fallback reportType
            approvedBy { nodes { ${USER_FIELDS} } }
            eligibleApprovers { ${USER_FIELDS} }
          }
        }
        committers { nodes { id username } }
        userPermissions {
          canApprove
          canMerge
          removeSourceBranch
          updateMergeRequest
          adminMergeRequest
          pushToSourceBranch
          revertOnCurrentMergeRequest
          cherryPickOnCurrentMergeRequest
        }
      }
    }
  }
`;

/**
 * Pushed over graphql-ws at /api/graphql whenever anything the widget shows changes
 * (a push, a merge, a check, a car ahead on its merge train merging or leaving). The client
 * refetches MERGE_REQUEST_WIDGET_QUERY on each; the merge train position it carries (GitLab's
 * MergeTrainPosition fragment: the car's index and the train's car count) is shown at once.
 * `issuableId` is the merge request's global id, `gid://gitlab/MergeRequest/<id>`.
 */
export const MERGE_STATUS_UPDATED_SUBSCRIPTION = /* GraphQL */ `
  subscription mergeRequestMergeStatusUpdated($issuableId: IssuableID!) {
    mergeRequestMergeStatusUpdated(issuableId: $issuableId) {
      ... on MergeRequest {
        id
        detailedMergeStatus
        commitCount
        mergeTrainCar { id index }
        mergeTrainsCount
      }
    }
  }
`;

/** What one mergeRequestMergeStatusUpdated message carries. */
export interface MergeStatusUpdatedPayload {
  mergeRequestMergeStatusUpdated: {
    id: string;
    detailedMergeStatus: string | null;
    commitCount: number;
    mergeTrainCar: { id: string; index: number | null } | null;
    mergeTrainsCount: number | null;
  } | null;
}

/** GitLab's global ids. */
export const mergeRequestGlobalId = (id: number | string): string => `gid://gitlab/MergeRequest/${id}`;

/**
 * Widget polling: the server's POLL-INTERVAL header (ms) overrides
 * the default; the client clamps it between start and start + max and backs off by factor.
 * A negative interval means no polling.
 */
export const WIDGET_POLLING = {
  defaultIntervalMs: 10_000,
  readyToMerge: { startMs: 5_000, maxMs: 5_000 + 240_000, hiddenIntervalMs: 360_000, factor: 2 },
  failedToMergeCountdownSeconds: 10,
} as const;
export const POLL_INTERVAL_HEADER = 'Poll-Interval';
