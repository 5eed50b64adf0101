/**
 * Approvals in GitLab's GraphQL schema (Types::MergeRequestType's approval fields,
 * Types::MergeRequests::ApprovalStateType, Types::ApprovalRuleType, the mergeRequestApprove and
 * mergeRequestUnapprove mutations), with GitLab's type, field and input names.
 */
export const approvalsSchema = /* GraphQL */ `
  type UserCoreConnection {
    count: Int!
    nodes: [UserCore]
  }

  enum ApprovalRuleType {
    REGULAR
    CODE_OWNER
    REPORT_APPROVER
    ANY_APPROVER
  }

  enum ApprovalReportType {
    SCAN_FINDING
    LICENSE_SCANNING
    CODE_COVERAGE
    ANY_MERGE_REQUEST
  }

  type ApprovalScanResultPolicy {
    approvalsRequired: Int!
    name: String!
    reportType: ApprovalReportType!
  }

  type ApprovalRule {
    "gid://gitlab/ApprovalMergeRequestRule/<id> (a project rule in force: ApprovalProjectRule; null for the fallback rule and code owner rules)"
    id: ID
    name: String
    type: ApprovalRuleType
    section: String
    approved: Boolean
    approvalsRequired: Int
    approvedBy: UserCoreConnection
    commentedBy: UserCoreConnection
    eligibleApprovers: [UserCore!]
    users: UserCoreConnection
    containsHiddenGroups: Boolean
    invalid: Boolean
    allowMergeWhenInvalid: Boolean
    "the rule is GitLab's fallback rule (the project's approvals_before_merge, without rules)"
    fallback: Boolean
    overridden: Boolean
    reportType: ApprovalReportType
    scanResultPolicies: [ApprovalScanResultPolicy!]
  }

  type PolicyApprovalSettingsOverride {
    name: String!
    editPath: String!
    settings: JSON
  }

  scalar JSON

  type MergeRequestApprovalState {
    approvalRulesOverwritten: Boolean
    invalidApproversRules: [ApprovalRule!]
    rules: [ApprovalRule!]
    suggestedApprovers: UserCoreConnection
    policiesOverridingApprovalSettings: [PolicyApprovalSettingsOverride!]
  }

  extend type MergeRequest {
    approved: Boolean!
    approvalsLeft: Int
    approvalsRequired: Int
    approvedBy: UserCoreConnection
    committers: UserCoreConnection
    approvalState: MergeRequestApprovalState!
  }

  extend type MergeRequestPermissions {
    canApprove: Boolean!
  }

  extend type Project {
    mergeRequestsDisableCommittersApproval: Boolean!
  }

  input MergeRequestApproveInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    sha: String
  }

  type MergeRequestApprovePayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  input MergeRequestUnapproveInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
  }

  type MergeRequestUnapprovePayload {
    clientMutationId: String
    errors: [String!]!
    mergeRequest: MergeRequest
  }

  extend type Subscription {
    "The approval state changed (approve, revoke, reset, a push that removed approvals, a review verdict)."
    mergeRequestApprovalStateUpdated(issuableId: IssuableID!): Issuable
  }

  extend type Mutation {
    mergeRequestApprove(input: MergeRequestApproveInput!): MergeRequestApprovePayload
    mergeRequestUnapprove(input: MergeRequestUnapproveInput!): MergeRequestUnapprovePayload
  }
`;
