/**
 * The approvals section's strings, word for word as GitLab's merge request widget shows them.
 * They go through `t()` / `n()` from @tributary/contracts where they are shown.
 */
export const APPROVALS_MSG = {
  heading: 'Approvals',
  loading: 'Checking approval status',
  fetchError: 'An error occurred while retrieving approval data for this merge request.',
  approveError: 'An error occurred while submitting your approval.',
  unapproveError: 'An error occurred while removing your approval.',
  optional: 'Approval is optional',
  requiresFromNamesOne: 'Requires %{count} approval from %{names}.',
  requiresFromNamesOther: 'Requires %{count} approvals from %{names}.',
  requiresEligibleOne: 'Requires %d approval from eligible users.',
  requiresEligibleOther: 'Requires %d approvals from eligible users.',
  approvedByYouAndOthers: 'Approved by you and others',
  approvedByYou: 'Approved by you',
  approvedBy: 'Approved by',
  codeOwners: 'Code Owners',
  approve: 'Approve',
  approveAdditionally: 'Approve additionally',
  revoke: 'Revoke approval',
  whyCantApprove: "Why can't I approve?",
  committerCantApprove: "You can't approve because you added one or more commits to this merge request.",
  showRules: 'Expand eligible approvers',
  hideRules: 'Collapse eligible approvers',
  // the rules table
  columnRule: 'Approvers',
  columnApprovals: 'Approvals',
  columnApprovedBy: 'Approved by',
  optionalRule: 'Optional',
  approvalsOf: '%{given} of %{required}',
  stateApproved: 'Approved',
  stateAutoApproved: 'Auto approved',
  stateActionRequired: 'Action required',
  statePending: 'Pending approval',
  allEligibleUsers: 'All eligible users',
  coverageCheckText: 'A merge request approval is required when test coverage declines.',
  // the password modal
  passwordTitle: 'Enter your password to approve',
  passwordLabel: 'Your password',
  passwordInvalid: 'Approval password is invalid.',
  cancel: 'Cancel',
  // 'Assign reviewers' (GitLab's action for those who may administer the merge request)
  assignReviewers: 'Assign reviewers',
  assignReviewersLabel: 'Eligible approvers who are not reviewers yet',
  assignReviewersError: 'The reviewers could not be assigned:',
} as const;
