import { approvalRuleState, type WidgetApprovalRule, type WidgetUser } from '@tributary/contracts/merge-widget';
import { n, t } from '@tributary/contracts/i18n';
import { APPROVALS_MSG as M } from './messages';

/** "a", "a and b", "a, b, and c" (GitLab's toNounSeriesText). */
export function nounSeries(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** The rules table's order: code owner rules first, then by name, then by section. */
export function sortRules<T extends Pick<WidgetApprovalRule, 'type' | 'name' | 'section'>>(rules: readonly T[]): T[] {
  const rank = (rule: T) => (rule.type === 'CODE_OWNER' ? 0 : 1);
  return [...rules].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name) || (a.section ?? '').localeCompare(b.section ?? ''));
}

/**
 * The names the summary says approvals are still required from (GitLab's
 * getApprovalRuleNamesLeft): regular and report rules by name, code owner rules once as
 * "Code Owners"; an any-approver rule names nobody (the "eligible users" sentence covers it).
 */
export function ruleNamesLeft(rules: readonly Pick<WidgetApprovalRule, 'type' | 'name' | 'approved'>[]): string[] {
  const left = rules.filter((rule) => !rule.approved);
  const named = left.filter((rule) => rule.type === 'REGULAR' || rule.type === 'REPORT_APPROVER').map((rule) => rule.name);
  return left.some((rule) => rule.type === 'CODE_OWNER') ? [...named, t(M.codeOwners)] : named;
}

export interface SummaryInput {
  approved: boolean;
  approvalsRequired: number | null;
  approvalsLeft: number | null;
  approvedBy: readonly Pick<WidgetUser, 'username'>[];
  rules: readonly Pick<WidgetApprovalRule, 'type' | 'name' | 'approved'>[];
  /** the signed-in user's username, or null for a visitor */
  me: string | null;
}

/** Approval is optional when no rule asks for an approval (GitLab: approvals required is 0). */
export function approvalOptional(input: Pick<SummaryInput, 'approvalsRequired'>): boolean {
  return !input.approvalsRequired;
}

/** The summary's two parts, as GitLab's approvals_summary.vue words them. */
export function approvalSummary(input: SummaryInput): { left: string; approvedBy: string } {
  const approved = input.approved || input.approvedBy.length > 0;
  const count = input.approvalsLeft ?? 0;
  let left = '';
  if (approvalOptional(input)) left = t(M.optional);
  else {
    const names = ruleNamesLeft(input.rules);
    if (names.length > 0 && count > 0) left = n(M.requiresFromNamesOne, M.requiresFromNamesOther, count, { count, names: nounSeries(names) });
    else if (!input.approved && count > 0) left = n(M.requiresEligibleOne, M.requiresEligibleOther, count);
  }
  const byMe = input.me !== null && input.approvedBy.some((user) => user.username === input.me);
  const byOthers = input.approvedBy.some((user) => user.username !== input.me);
  // the "Approved by" part shows only beside the approvers' avatars
  let approvedBy = '';
  if (input.approvedBy.length === 0) approvedBy = '';
  else if (byMe && byOthers) approvedBy = t(M.approvedByYouAndOthers);
  else if (byMe) approvedBy = t(M.approvedByYou);
  else if (approved) approvedBy = t(M.approvedBy);
  return { left, approvedBy };
}

/**
 * Which button the caller sees: 'Approve' when they have not approved, may approve and the
 * request is open; 'Revoke' when they approved, may not approve (again) and it is not merged.
 */
export function approvalAction(input: { canApprove: boolean; approvedByMe: boolean; state: string }): 'approve' | 'revoke' | null {
  if (!input.approvedByMe && input.canApprove && input.state === 'opened') return 'approve';
  if (input.approvedByMe && !input.canApprove && input.state !== 'merged') return 'revoke';
  return null;
}

/** The rules table's state label of a rule. */
export function ruleStateLabel(rule: Pick<WidgetApprovalRule, 'approved' | 'invalid' | 'allowMergeWhenInvalid'>): string {
  const state = approvalRuleState(rule);
  if (state === 'approved') return t(M.stateApproved);
  if (state === 'auto_approved') return t(M.stateAutoApproved);
  if (state === 'action_required') return t(M.stateActionRequired);
  return t(M.statePending);
}
