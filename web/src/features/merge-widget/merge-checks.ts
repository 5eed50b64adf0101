import { n, t } from '@tributary/contracts/i18n';
import type { MergeabilityCheck, MergeabilityCheckIdentifier, MergeabilityCheckStatus } from '@tributary/contracts/merge-widget';
import { MSG } from './messages';

/**
 * The merge checks block: which checks show, in what order, with what
 * message, and the summary line's icon and text. GitLab's
 * vue_merge_request_widget/components/merge_checks.vue and checks/constants.js.
 */

/**
 * GitLab's FAILURE_REASONS, keyed by the GraphQL identifier. A check without a message here
 * is not shown (CI_STILL_RUNNING has none in GitLab either). TITLE_REGEX: GitLab's
 * checks/constants.js has no entry for it in the versions we could read; the wording follows
 * ("title must match expected format").
 */
export const CHECK_MESSAGES: Partial<Record<MergeabilityCheckIdentifier, string>> = {
  COMMITS_STATUS: 'Source branch exists and contains commits.',
  CI_MUST_PASS: 'Pipeline must succeed.',
  CONFLICT: 'Merge conflicts must be resolved.',
  DISCUSSIONS_NOT_RESOLVED: 'Unresolved discussions must be resolved.',
  DRAFT_STATUS: 'Merge request must not be draft.',
  NOT_OPEN: 'Merge request must be open.',
  NEED_REBASE: 'Merge request must be rebased, because a fast-forward merge is not possible.',
  NOT_APPROVED: 'All required approvals must be given.',
  REQUESTED_CHANGES: 'Change requests must be approved by the requesting user.',
  BLOCKED_STATUS: 'Merge request dependencies must be merged.',
  EXTERNAL_STATUS_CHECKS: 'Status checks must pass.',
  TITLE_REGEX: 'Title must match the expected format.',
};

export function checkMessage(identifier: MergeabilityCheckIdentifier): string | undefined {
  const message = CHECK_MESSAGES[identifier];
  return message === undefined ? undefined : t(message);
}

/** Sorted CHECKING, FAILED, WARNING, SUCCESS. */
const ORDER: MergeabilityCheckStatus[] = ['CHECKING', 'FAILED', 'WARNING', 'SUCCESS'];

/**
 * The checks the list shows: inactive checks and checks without a known message are hidden;
 * while collapsed only failed and checking ones show. The sort is stable, so checks of one
 * status keep the server's (documented) order.
 */
export function visibleChecks(checks: readonly MergeabilityCheck[], collapsed: boolean): MergeabilityCheck[] {
  return checks
    .filter((check) => check.status !== 'INACTIVE' && CHECK_MESSAGES[check.identifier] !== undefined)
    .filter((check) => !collapsed || check.status === 'FAILED' || check.status === 'CHECKING')
    .map((check, index) => ({ check, index }))
    .sort((a, b) => ORDER.indexOf(a.check.status) - ORDER.indexOf(b.check.status) || a.index - b.index)
    .map(({ check }) => check);
}

export type SummaryIcon = 'warning' | 'loading' | 'failed' | 'success';

/** Warning if any warning, else loading if any checking, else failed if any failed, else success. */
export function summaryIcon(checks: readonly MergeabilityCheck[]): SummaryIcon {
  const has = (status: MergeabilityCheckStatus) => checks.some((check) => check.status === status);
  if (has('WARNING')) return 'warning';
  if (has('CHECKING')) return 'loading';
  if (has('FAILED')) return 'failed';
  return 'success';
}

/** The summary line: checking, then blocked by N failed checks, then caution, then ready. */
export function summaryText(checks: readonly MergeabilityCheck[], canMerge: boolean): string {
  // only checks the list can show are counted: CI_STILL_RUNNING fails beside CI_MUST_PASS for
  // one pipeline, and GitLab names that blocker once ('Pipeline must succeed.')
  const failed = checks.filter((check) => check.status === 'FAILED' && CHECK_MESSAGES[check.identifier] !== undefined).length;
  if (checks.some((check) => check.status === 'CHECKING')) return t(MSG.checksChecking);
  if (failed > 0) return n(MSG.checksBlockedOne, MSG.checksBlockedMany, failed, { count: failed });
  if (checks.some((check) => check.status === 'WARNING')) return t(MSG.checksCaution);
  return t(canMerge ? MSG.readyToMerge : MSG.notAllowedToMerge);
}

/** Whether the list has anything more to show when expanded than when collapsed. */
export function hasHiddenChecks(checks: readonly MergeabilityCheck[]): boolean {
  return visibleChecks(checks, false).length > visibleChecks(checks, true).length;
}
