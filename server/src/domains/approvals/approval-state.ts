/**
 * The approval state of a merge request: GitLab's ApprovalState and ApprovalWrappedRule as pure
 * functions of literal facts (the rules with their designated users already resolved, who may
 * approve at all, who approved, the author and the committers, the settings).
 *
 * - A rule's approvers are its designated users and the members of its groups (code owners for
 *   a code_owner rule), among those who may approve the merge request (at least Developer),
 *   less the author when authors may not approve and the committers when committers may not.
 *   An any_approver rule (and the fallback rule) counts every eligible user.
 * - A rule is approved when approvals_left is 0, or when it is invalid (fewer approvers than
 *   it requires; never for any_approver) and merging is allowed while it is invalid (GitLab
 *   allows it for every rule a security policy did not make); otherwise it needs action.
 * - approvalsRequired and approvalsLeft are the larger of (regular + code owner + report
 *   approver rules) and the any_approver rules, as GitLab adds them.
 */
import type { ReportType, RuleType } from './approval-rule.js';

/** How the rules table names a rule's kind: GitLab's rule types plus the fallback rule. */
export type EvaluatedRuleType = RuleType | 'fallback';

export interface RuleFacts {
  /** null for the fallback rule and code owner rules not stored yet */
  id: number | null;
  name: string;
  ruleType: EvaluatedRuleType;
  reportType: ReportType | null;
  /** a code owner rule's CODEOWNERS section */
  section: string | null;
  approvalsRequired: number;
  /** designated users, then the members of designated groups (any order; duplicates are fine) */
  candidateIds: readonly number[];
  /** the rule names groups the viewer may not see (GitLab's hidden_groups) */
  containsHiddenGroups: boolean;
  /** GitLab: every rule a security policy did not make may be merged past when invalid */
  allowMergeWhenInvalid: boolean;
  /** a code owner rule counts only when its branch requires code owner approval */
  codeOwnerApprovalRequired?: boolean;
  /** the project rule a merge request rule was copied from */
  sourceRuleId?: number | null;
}

export interface ApprovalFacts {
  rules: readonly RuleFacts[];
  /** users who may approve this merge request at all (at least Developer on its project) */
  eligibleIds: ReadonlySet<number>;
  /** who approved, in the order they did */
  approverIds: readonly number[];
  authorId: number | null;
  committerIds: ReadonlySet<number>;
  allowAuthorApproval: boolean;
  allowCommitterApproval: boolean;
  /** the merge request is merged: its state is frozen (invalid and unapproved rules are dropped) */
  merged?: boolean;
}

/** What the page shows for a rule (GitLab's approval rule states). */
export type RuleState = 'approved' | 'auto_approved' | 'action_required' | 'pending' | 'optional';

export interface EvaluatedRule extends RuleFacts {
  /** eligible approvers after the author and committer exclusions, in candidate order */
  approverIds: number[];
  approvedByIds: number[];
  approvalsLeft: number;
  approved: boolean;
  invalid: boolean;
  state: RuleState;
}

export interface ApprovalStateResult {
  rules: EvaluatedRule[];
  approved: boolean;
  approvalsRequired: number;
  approvalsLeft: number;
  /** every approval, in order (GitLab's approved_by) */
  approvedByIds: number[];
  invalidRules: EvaluatedRule[];
  /** approvers who have not approved, from rules without hidden groups, author and committers excluded */
  suggestedApproverIds: number[];
  /** is any rule requiring approvals (GitLab's approval_needed?) */
  approvalNeeded: boolean;
}

const unique = (ids: Iterable<number>): number[] => [...new Set(ids)];

/** Removes the author and committers when the settings say they may not approve. Pure. */
export function excludeAuthorAndCommitters(ids: Iterable<number>, facts: Pick<ApprovalFacts, 'authorId' | 'committerIds' | 'allowAuthorApproval' | 'allowCommitterApproval'>): number[] {
  return unique(ids).filter((id) => (facts.allowAuthorApproval || id !== facts.authorId) && (facts.allowCommitterApproval || !facts.committerIds.has(id)));
}

function isAnyApprover(rule: RuleFacts): boolean {
  return rule.ruleType === 'any_approver' || rule.ruleType === 'fallback';
}

export function evaluateRule(rule: RuleFacts, facts: ApprovalFacts): EvaluatedRule {
  const anyApprover = isAnyApprover(rule);
  const candidates = anyApprover ? facts.eligibleIds : rule.candidateIds.filter((id) => facts.eligibleIds.has(id));
  const approverIds = excludeAuthorAndCommitters(candidates, facts);
  const approvedSet = new Set(facts.approverIds);
  // An any_approver rule counts every approval that counts at all; other rules their approvers'.
  const approvedByIds = anyApprover ? excludeAuthorAndCommitters(facts.approverIds, facts).filter((id) => facts.eligibleIds.has(id)) : approverIds.filter((id) => approvedSet.has(id));
  const required = rule.ruleType === 'code_owner' && rule.codeOwnerApprovalRequired === false ? 0 : rule.approvalsRequired;
  const invalid = !anyApprover && required > approverIds.length;
  const approvalsLeft = Math.max(required - approvedByIds.length, 0);
  const approved = approvalsLeft === 0 || (invalid && rule.allowMergeWhenInvalid);
  let state: RuleState;
  if (required === 0) state = 'optional';
  else if (approvalsLeft === 0) state = 'approved';
  else if (invalid) state = rule.allowMergeWhenInvalid ? 'auto_approved' : 'action_required';
  else state = 'pending';
  return { ...rule, approvalsRequired: required, approverIds, approvedByIds, approvalsLeft, approved, invalid, state };
}

const sum = (rules: readonly EvaluatedRule[], pick: (rule: EvaluatedRule) => number) => rules.reduce((total, rule) => total + pick(rule), 0);

export function evaluateApprovalState(facts: ApprovalFacts): ApprovalStateResult {
  let rules = facts.rules.map((rule) => evaluateRule(rule, facts));
  const invalidRules = rules.filter((rule) => rule.invalid);
  // After the merge only the rules that were approved then still describe it (GitLab).
  if (facts.merged) rules = rules.filter((rule) => !rule.invalid && rule.approved);
  const anyApprover = rules.filter(isAnyApprover);
  const others = rules.filter((rule) => !isAnyApprover(rule));
  const approvalsRequired = Math.max(
    sum(others, (rule) => rule.approvalsRequired),
    sum(anyApprover, (rule) => rule.approvalsRequired),
  );
  const approvalsLeft = Math.max(
    sum(others, (rule) => rule.approvalsLeft),
    sum(anyApprover, (rule) => rule.approvalsLeft),
  );
  const approvedSet = new Set(facts.approverIds);
  const suggested = rules.filter((rule) => !rule.containsHiddenGroups && !isAnyApprover(rule)).flatMap((rule) => rule.approverIds);
  return {
    rules,
    approved: rules.every((rule) => rule.approved),
    approvalsRequired,
    approvalsLeft,
    approvedByIds: unique(facts.approverIds),
    invalidRules,
    suggestedApproverIds: unique(suggested).filter((id) => !approvedSet.has(id)),
    approvalNeeded: rules.some((rule) => rule.approvalsRequired > 0),
  };
}

/** Why a user may not approve, when the page can explain it. */
export type CannotApproveReason = 'committer' | 'author' | 'not_eligible' | 'already_approved';

/**
 * May `userId` approve now? GitLab's eligible_for_approval_by?: someone who may approve the
 * merge request at all, who has not approved yet, and who is not an excluded author or
 * committer. A user who is an unactioned approver of some rule may approve; so may any other
 * eligible user (their approval counts towards any_approver rules and is recorded).
 */
export function approvalEligibility(userId: number | null, facts: ApprovalFacts): { canApprove: boolean; reason: CannotApproveReason | null } {
  if (userId === null || !facts.eligibleIds.has(userId)) return { canApprove: false, reason: 'not_eligible' };
  if (facts.approverIds.includes(userId)) return { canApprove: false, reason: 'already_approved' };
  if (!facts.allowAuthorApproval && userId === facts.authorId) return { canApprove: false, reason: 'author' };
  if (!facts.allowCommitterApproval && facts.committerIds.has(userId)) return { canApprove: false, reason: 'committer' };
  return { canApprove: true, reason: null };
}

/** The hint the page shows under 'Why can't I approve?' (only GitLab's committer case has one). */
export const WHY_CANT_I_APPROVE = "Why can't I approve?";
export const COMMITTER_CANNOT_APPROVE = "You can't approve because you added one or more commits to this merge request.";

export function cannotApproveExplanation(reason: CannotApproveReason | null): string | null {
  return reason === 'committer' ? COMMITTER_CANNOT_APPROVE : null;
}
