/**
 * REST v4 spells the statuses in lower case, and two of them differently from GraphQL
 * (GitLab's DetailedMergeStatusEnum: BLOCKED_STATUS is `merge_request_blocked`,
 * EXTERNAL_STATUS_CHECKS is `status_checks_must_pass`). Pure.
 */
import type { DetailedMergeStatus } from '@tributary/contracts';
import type { MergeStatus } from '../merge-request.js';

const REST_NAMES: Partial<Record<DetailedMergeStatus, string>> = {
  BLOCKED_STATUS: 'merge_request_blocked',
  EXTERNAL_STATUS_CHECKS: 'status_checks_must_pass',
};

export function restDetailedMergeStatus(status: DetailedMergeStatus): string {
  return REST_NAMES[status] ?? status.toLowerCase();
}

/** The deprecated `merge_status` field: GitLab shows its internal recheck states as `checking`. */
export function publicMergeStatus(status: MergeStatus): MergeStatus {
  return status === 'cannot_be_merged_rechecking' || status === 'preparing' ? 'checking' : status;
}
