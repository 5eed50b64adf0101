import { MERGEABILITY_CHECK_IDENTIFIERS, type MergeabilityCheck } from '@tributary/contracts';
import { describe, expect, it } from 'vitest';
import { MERGE_CHECKS } from './checks/index.js';
import { mergeableFacts } from './checks/test-facts.js';
import { assess, foldDetailedMergeStatus, type FoldInput } from './fold.js';

const passing = (): MergeabilityCheck[] => MERGE_CHECKS.map((check) => ({ identifier: check.identifier, status: 'SUCCESS' }));
const withStatus = (statuses: Partial<Record<MergeabilityCheck['identifier'], MergeabilityCheck['status']>>): MergeabilityCheck[] =>
  passing().map((check) => ({ ...check, status: statuses[check.identifier] ?? check.status }));
const input = (overrides: Partial<FoldInput>): FoldInput => ({ state: 'opened', mergeStatus: 'can_be_merged', commitsCount: 2, checks: passing(), ...overrides });

/** One row per rule of the fold (fold.ts), in its order. */
describe('foldDetailedMergeStatus', () => {
  it.each([
    ['closed: NOT_OPEN before anything else', { state: 'closed', mergeStatus: 'checking', commitsCount: null }, 'NOT_OPEN'],
    ['merged: NOT_OPEN', { state: 'merged', checks: withStatus({ NOT_OPEN: 'FAILED' }) }, 'NOT_OPEN'],
    ['no version yet: PREPARING', { commitsCount: null, mergeStatus: 'unchecked' }, 'PREPARING'],
    ['merge_status preparing: PREPARING', { mergeStatus: 'preparing' }, 'PREPARING'],
    ['PREPARING before a failed check', { commitsCount: null, checks: withStatus({ DRAFT_STATUS: 'FAILED' }) }, 'PREPARING'],
    ['trial merge running: CHECKING', { mergeStatus: 'checking' }, 'CHECKING'],
    ['rechecking after a conflict: CHECKING', { mergeStatus: 'cannot_be_merged_rechecking' }, 'CHECKING'],
    ['CHECKING before a failed check', { mergeStatus: 'checking', checks: withStatus({ DRAFT_STATUS: 'FAILED' }) }, 'CHECKING'],
    ['trial merge due: UNCHECKED', { mergeStatus: 'unchecked' }, 'UNCHECKED'],
    ['recheck due after a conflict: UNCHECKED', { mergeStatus: 'cannot_be_merged_recheck' }, 'UNCHECKED'],
    ['a failed check names the status', { checks: withStatus({ TITLE_REGEX: 'FAILED' }) }, 'TITLE_REGEX'],
    ['the first failed check in order wins', { checks: withStatus({ BLOCKED_STATUS: 'FAILED', CONFLICT: 'FAILED', DRAFT_STATUS: 'FAILED' }) }, 'DRAFT_STATUS'],
    ['NEED_REBASE before dependencies and threads', { checks: withStatus({ DISCUSSIONS_NOT_RESOLVED: 'FAILED', BLOCKED_STATUS: 'FAILED', NEED_REBASE: 'FAILED' }) }, 'NEED_REBASE'],
    ['a check still CHECKING before any failure: CHECKING', { checks: withStatus({ COMMITS_STATUS: 'CHECKING', BLOCKED_STATUS: 'FAILED' }) }, 'CHECKING'],
    ['a failure before a CHECKING check wins', { checks: withStatus({ DRAFT_STATUS: 'FAILED', CONFLICT: 'CHECKING' }) }, 'DRAFT_STATUS'],
    ['INACTIVE and WARNING checks do not block', { checks: withStatus({ NEED_REBASE: 'INACTIVE', TITLE_REGEX: 'WARNING' }) }, 'MERGEABLE'],
    ['a locked request (merge running) is open', { state: 'locked' }, 'MERGEABLE'],
    ['everything passes: MERGEABLE', {}, 'MERGEABLE'],
  ] as const)('%s', (_name, overrides, expected) => {
    expect(foldDetailedMergeStatus(input(overrides as Partial<FoldInput>))).toBe(expected);
  });
});

describe('assess', () => {
  it('reports every check, not only the first that fails', () => {
    const result = assess(mergeableFacts({ draft: true, mergeStatus: 'cannot_be_merged', blockers: ['opened'], titleRegex: '^feat', mergeMethod: 'ff', divergedCommitsCount: 2 }));
    expect(result.detailedMergeStatus).toBe('DRAFT_STATUS');
    expect(result.checks).toEqual([
      { identifier: 'NOT_OPEN', status: 'SUCCESS' },
      { identifier: 'DRAFT_STATUS', status: 'FAILED' },
      { identifier: 'COMMITS_STATUS', status: 'SUCCESS' },
      { identifier: 'CONFLICT', status: 'FAILED' },
      { identifier: 'NEED_REBASE', status: 'FAILED' },
      { identifier: 'TITLE_REGEX', status: 'FAILED' },
      { identifier: 'BLOCKED_STATUS', status: 'FAILED' },
      { identifier: 'DISCUSSIONS_NOT_RESOLVED', status: 'INACTIVE' },
      { identifier: 'CI_STILL_RUNNING', status: 'INACTIVE' },
      { identifier: 'CI_MUST_PASS', status: 'INACTIVE' },
    ]);
  });

  it('checks run in the order of the shared contract', () => {
    const order = MERGE_CHECKS.map((check) => check.identifier);
    expect(MERGEABILITY_CHECK_IDENTIFIERS.filter((identifier) => order.includes(identifier))).toEqual(order);
  });
});
