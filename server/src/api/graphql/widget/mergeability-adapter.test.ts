import { describe, expect, it } from 'vitest';
import { normalizeMergeability } from './mergeability-adapter.js';

describe('normalizeMergeability', () => {
  const base = { checks: [], divergedCommitsCount: 2, mergeRefSha: 'abc' };

  it.each([
    ['MERGEABLE', 'MERGEABLE'],
    ['mergeable', 'MERGEABLE'],
    ['ci_still_running', 'CI_STILL_RUNNING'],
    // GitLab's REST names for two statuses whose GraphQL names differ
    ['merge_request_blocked', 'BLOCKED_STATUS'],
    ['status_checks_must_pass', 'EXTERNAL_STATUS_CHECKS'],
    // a status a later issue adds to the domain before the schema knows it
    ['jira_association_missing', 'UNCHECKED'],
  ])('reports %s as %s', (given, expected) => {
    expect(normalizeMergeability({ ...base, detailedMergeStatus: given }).detailedMergeStatus).toBe(expected);
  });

  it('keeps known checks in order, upper-cased, and leaves out those the schema does not know', () => {
    const checks = [
      { identifier: 'not_open', status: 'success' },
      { identifier: 'CONFLICT', status: 'CHECKING' },
      { identifier: 'LOCKED_PATHS', status: 'FAILED' },
      { identifier: 'DRAFT_STATUS', status: 'SOMETIMES' },
    ];
    expect(normalizeMergeability({ ...base, detailedMergeStatus: 'CHECKING', checks })).toEqual({
      detailedMergeStatus: 'CHECKING',
      checks: [
        { identifier: 'NOT_OPEN', status: 'SUCCESS' },
        { identifier: 'CONFLICT', status: 'CHECKING' },
      ],
      divergedCommitsCount: 2,
      mergeRefSha: 'abc',
    });
  });
});
