import { DETAILED_MERGE_STATUSES } from '@tributary/contracts';
import { describe, expect, it } from 'vitest';
import { publicMergeStatus, restDetailedMergeStatus } from './rest-names.js';

describe('REST spellings', () => {
  it('lower-cases detailed statuses, with GitLab’s two REST names', () => {
    expect(restDetailedMergeStatus('MERGEABLE')).toBe('mergeable');
    expect(restDetailedMergeStatus('NEED_REBASE')).toBe('need_rebase');
    expect(restDetailedMergeStatus('BLOCKED_STATUS')).toBe('merge_request_blocked');
    expect(restDetailedMergeStatus('EXTERNAL_STATUS_CHECKS')).toBe('status_checks_must_pass');
    expect(new Set(DETAILED_MERGE_STATUSES.map(restDetailedMergeStatus)).size).toBe(DETAILED_MERGE_STATUSES.length);
  });

  it('shows internal recheck states of merge_status as checking', () => {
    expect(publicMergeStatus('cannot_be_merged_rechecking')).toBe('checking');
    expect(publicMergeStatus('preparing')).toBe('checking');
    expect(publicMergeStatus('cannot_be_merged_recheck')).toBe('cannot_be_merged_recheck');
    expect(publicMergeStatus('can_be_merged')).toBe('can_be_merged');
  });
});
