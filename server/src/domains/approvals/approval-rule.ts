/**
 * The approval model shared by the approvals domain's files: rule types, stored rules and
 * the settings that shape who may approve. Types only.
 */

/** GitLab's rule_type values of stored and computed rules. */
export const RULE_TYPES = ['regular', 'any_approver', 'report_approver', 'code_owner'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** GitLab's report_type values of `report_approver` rules. */
export const REPORT_TYPES = ['scan_finding', 'license_scanning', 'code_coverage', 'any_merge_request'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/**
 * GitLab's coverage check: the report approver rule of this name is the code_coverage one, and
 * the page explains it with this sentence.
 */
export const COVERAGE_CHECK_RULE_NAME = 'Coverage-Check';
export const COVERAGE_CHECK_DESCRIPTION = 'A merge request approval is required when test coverage declines.';

/** The report type a rule name implies (GitLab: 'Coverage-Check' is code_coverage). Pure. */
export function reportTypeForName(name: string): ReportType | null {
  return name === COVERAGE_CHECK_RULE_NAME ? 'code_coverage' : null;
}

/** A project's approval rule as stored, with its users, groups and protected branches. */
export interface ProjectApprovalRule {
  id: number;
  project_id: number;
  name: string;
  approvals_required: number;
  rule_type: Exclude<RuleType, 'code_owner'>;
  report_type: ReportType | null;
  applies_to_all_protected_branches: boolean;
  user_ids: number[];
  group_ids: number[];
  protected_branch_ids: number[];
}

/** A merge request's approval rule as stored. */
export interface MergeRequestApprovalRule {
  id: number;
  merge_request_id: number;
  name: string;
  approvals_required: number;
  rule_type: RuleType;
  report_type: ReportType | null;
  section: string | null;
  approval_project_rule_id: number | null;
  user_ids: number[];
  group_ids: number[];
}

/** One approval as stored. */
export interface Approval {
  user_id: number;
  sha: string | null;
  patch_id_sha: string | null;
  created_at: Date;
}

/** The effective approval settings of one project (after the instance's and groups' locks). */
export interface EffectiveApprovalSettings {
  allowAuthorApproval: boolean;
  allowCommitterApproval: boolean;
  allowOverridesToApproverListPerMergeRequest: boolean;
  retainApprovalsOnPush: boolean;
  selectiveCodeOwnerRemovals: boolean;
  requirePasswordToApprove: boolean;
  /** the deprecated project-wide count, used when there is no rule (GitLab's fallback rule) */
  approvalsBeforeMerge: number;
}

/** A reviewer's state (GitLab's MergeRequestReviewer states; 'unreviewed' is shown as requested). */
export const REVIEWER_STATES = ['unreviewed', 'reviewed', 'requested_changes', 'approved', 'unapproved'] as const;
export type ReviewerState = (typeof REVIEWER_STATES)[number];
