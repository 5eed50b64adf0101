import { DETAILED_MERGE_STATUSES, MERGEABILITY_CHECK_IDENTIFIERS, MERGEABILITY_CHECK_STATUSES } from '@tributary/contracts';
import { editorSchema } from './editor/schema.js';
import { labelsSchema } from './labels/schema.js';
import { approvalsSchema } from './approvals/schema.js';
import { pipelinesSchema } from './pipelines/schema.js';
import { mergeTrainsSchema } from './merge-trains/schema.js';

/**
 * The GraphQL schema at /api/graphql: the part of GitLab's schema that Tributary has, with
 * GitLab's type, field and enum names, so GitLab clients and the web app's widget query
 * (packages/contracts/src/merge-widget.ts) run unchanged. Fields GitLab has and Tributary
 * cannot fill yet (pipelines, approvals, auto-merge) are left out rather than faked, except
 * `autoMergeEnabled`, which is honestly false until auto-merge exists. The threads, notes and
 * mutations of GitLab's editor extensions are in editor/schema.ts, labels and milestones in
 * labels/schema.ts.
 */
const widgetSchema = /* GraphQL */ `
  "ISO 8601 date and time"
  scalar Time
  "A global id of an issuable: gid://gitlab/MergeRequest/<id>"
  scalar IssuableID
  "A global id of a merge request: gid://gitlab/MergeRequest/<id>"
  scalar MergeRequestID

  type Query {
    "The signed-in user; null for anonymous callers."
    currentUser: UserCore
    "A project by its full path; null when it does not exist or the caller may not see it."
    project(fullPath: ID!): Project
    "A merge request by global id; null when it does not exist or the caller may not see it."
    mergeRequest(id: MergeRequestID!): MergeRequest
  }

  type Subscription {
    "Anything the merge widget shows changed: a push, a mergeability result, a merge."
    mergeRequestMergeStatusUpdated(issuableId: IssuableID!): Issuable
  }

  union Issuable = MergeRequest

  type UserCore {
    id: ID!
    username: String!
    name: String!
    state: UserState!
    webUrl: String!
    webPath: String!
    avatarUrl: String
  }

  enum UserState {
    active
    blocked
  }

  "GitLab's merge methods: merge commit, merge commit with semi-linear history, fast-forward."
  enum MergeMethod {
    MERGE
    REBASE_MERGE
    FF
  }

  type Project {
    id: ID!
    fullPath: ID!
    name: String!
    path: String!
    nameWithNamespace: String!
    description: String
    visibility: String
    webUrl: String
    archived: Boolean
    mergeMethod: MergeMethod!
    mergeRequestsFfOnlyEnabled: Boolean
    onlyAllowMergeIfPipelineSucceeds: Boolean
    allowMergeOnSkippedPipeline: Boolean
    ciCdSettings: ProjectCiCdSetting
    onlyAllowMergeIfAllDiscussionsAreResolved: Boolean
    removeSourceBranchAfterMerge: Boolean
    "never, always, default_on or default_off (the REST API's squash_option)"
    squashOption: String!
    squashReadOnly: Boolean!
    "A merge request of this project by iid; null when absent or not visible."
    mergeRequest(iid: String!): MergeRequest
  }

  enum MergeRequestState {
    opened
    closed
    locked
    merged
    all
  }

  enum DetailedMergeStatus {
    ${DETAILED_MERGE_STATUSES.join('\n    ')}
  }

  enum MergeabilityCheckIdentifier {
    ${MERGEABILITY_CHECK_IDENTIFIERS.join('\n    ')}
  }

  enum MergeabilityCheckStatus {
    ${MERGEABILITY_CHECK_STATUSES.join('\n    ')}
  }

  type MergeabilityCheck {
    identifier: MergeabilityCheckIdentifier!
    status: MergeabilityCheckStatus!
  }

  type MergeRequestPermissions {
    adminMergeRequest: Boolean!
    canMerge: Boolean!
    cherryPickOnCurrentMergeRequest: Boolean!
    pushToSourceBranch: Boolean!
    readMergeRequest: Boolean!
    removeSourceBranch: Boolean!
    revertOnCurrentMergeRequest: Boolean!
    updateMergeRequest: Boolean!
  }

  type Commit {
    id: ID!
    sha: String!
    shortId: String!
    title: String
    message: String
    authorName: String
    authorEmail: String
    authoredDate: Time
    committedDate: Time
    webUrl: String!
  }

  type CommitConnection {
    count: Int!
    nodes: [Commit]
  }

  "The merge requests that must be merged first (BLOCKED_STATUS); hidden ones are only counted."
  type BlockingMergeRequests {
    count: Int!
    hiddenCount: Int!
    totalCount: Int!
    nodes: [MergeRequest!]!
    visibleMergeRequests: [MergeRequest!]
  }

  type DiffRefs {
    baseSha: String
    headSha: String!
    startSha: String!
  }

  type MergeRequest {
    id: ID!
    iid: String!
    title: String!
    description: String
    state: MergeRequestState!
    draft: Boolean!
    createdAt: Time!
    updatedAt: Time!
    webUrl: String
    webPath: String!
    reference(full: Boolean = false): String!
    projectId: Int!
    targetProjectId: Int!
    sourceProjectId: Int
    project: Project!
    author: UserCore
    sourceBranch: String!
    targetBranch: String!
    sourceBranchExists: Boolean!
    targetBranchExists: Boolean!
    sourceBranchProtected: Boolean!
    diffHeadSha: String
    diffRefs: DiffRefs
    "Deprecated in GitLab for detailedMergeStatus; the git mergeability only."
    mergeStatus: String
    detailedMergeStatus: DetailedMergeStatus
    mergeabilityChecks: [MergeabilityCheck!]!
    mergeable: Boolean!
    conflicts: Boolean!
    commitCount: Int
    commitsWithoutMergeCommits: CommitConnection
    defaultMergeCommitMessage: String
    defaultSquashCommitMessage: String
    shouldRemoveSourceBranch: Boolean
    forceRemoveSourceBranch: Boolean
    squash: Boolean!
    squashOnMerge: Boolean!
    squashReadOnly: Boolean!
    divergedCommitsCount: Int
    divergedFromTargetBranch: Boolean!
    shouldBeRebased: Boolean!
    rebaseInProgress: Boolean!
    mergeOngoing: Boolean!
    mergeError: String
    mergeUser: UserCore
    mergedAt: Time
    mergeCommitSha: String
    squashCommitSha: String
    allowCollaboration: Boolean
    retargeted: Boolean
    discussionLocked: Boolean!
    mergedBy: UserCore
    closedBy: UserCore
    closedAt: Time
    "Auto-merge is set (GitLab's auto_merge_enabled): it waits for the checks, or its merge failed (mergeError says why)."
    autoMergeEnabled: Boolean!
    "The strategy auto-merge is set with: merge_when_checks_pass, add_to_merge_train_when_checks_pass or merge_train."
    autoMergeStrategy: String
    "What the caller could set now, in the page's priority order (none while auto-merge is set)."
    availableAutoMergeStrategies: [String!]!
    "GitLab's preferred strategy: the first available one."
    preferredAutoMergeStrategy: String
    blockingMergeRequests: BlockingMergeRequests!
    userPermissions: MergeRequestPermissions!
    "The pipeline for the diff head (merge request pipelines first); null when none or not readable."
    headPipeline: Pipeline
    "Merge request pipelines first, then the source branch's for the request's commits, newest first."
    pipelines(first: Int = 20): PipelineConnection
    "GitLab's has_ci?: the request has a pipeline."
    hasCi: Boolean!
    "The target branch's pipeline for the commit the merge request landed as (the REST payload's merge_pipeline)."
    mergePipeline: Pipeline
    "GitLab's widget pipeline_coverage_delta: the head pipeline's coverage minus the base pipeline's ('%.2f'); null unless both have one."
    pipelineCoverageDelta: String
    "GitLab's widget builds_with_coverage: the head pipeline's latest jobs with a coverage."
    buildsWithCoverage: [BuildCoverage!]!
    "Merged results pipelines are on and the source is a fork: its pipelines run in the fork, on the head."
    mergePipelinesForkWarning: Boolean!
    "'You should run a new pipeline, because the target branch has changed for this merge request.' after a retarget with merged results pipelines on."
    pipelineRetargetedWarning: String
  }

  enum PipelineStatusEnum {
    CREATED
    WAITING_FOR_RESOURCE
    PREPARING
    PENDING
    RUNNING
    FAILED
    SUCCESS
    CANCELING
    CANCELED
    SKIPPED
    MANUAL
    SCHEDULED
  }

  enum PipelineMergeRequestEventType {
    MERGED_RESULT
    DETACHED
    MERGE_TRAIN
  }

  type DetailedStatus {
    id: String!
    icon: String
    text: String
    label: String
    group: String
    tooltip: String
    hasDetails: Boolean
    detailsPath: String
    favicon: String
  }

  type CiStage {
    id: ID!
    name: String
    status: String
    detailedStatus: DetailedStatus
  }

  type CiStageConnection {
    nodes: [CiStage]
  }

  type Pipeline {
    id: ID!
    iid: String!
    sha: String!
    ref: String
    source: String
    status: PipelineStatusEnum!
    detailedStatus: DetailedStatus!
    path: String
    active: Boolean!
    coverage: Float
    createdAt: Time!
    updatedAt: Time!
    finishedAt: Time
    duration: Int
    mergeRequestEventType: PipelineMergeRequestEventType
    "The explanation title: Merged results pipeline, Merge request pipeline (or Pipeline)."
    eventTypeName: String!
    stages: CiStageConnection
  }

  "A job and its coverage (GitLab's BuildCoverageEntity)."
  type BuildCoverage {
    name: String!
    coverage: Float!
  }

  type PipelineConnection {
    count: Int!
    nodes: [Pipeline]
  }

  type ProjectCiCdSetting {
    mergePipelinesEnabled: Boolean
    mergeTrainsEnabled: Boolean
  }
`;

export const schema = widgetSchema + editorSchema + labelsSchema + approvalsSchema + pipelinesSchema + mergeTrainsSchema;
