import type { MergeabilityCheck, MergeabilityCheckIdentifier, MergeabilityCheckStatus } from '@tributary/contracts/merge-widget';
import { describe, expect, it } from 'vitest';
import { checkMessage, hasHiddenChecks, summaryIcon, summaryText, visibleChecks } from './merge-checks';

const check = (identifier: MergeabilityCheckIdentifier, status: MergeabilityCheckStatus): MergeabilityCheck => ({ identifier, status });

/** The order the server reports them in (a documented order, not sorted by status). */
const mixed: MergeabilityCheck[] = [
  check('NOT_OPEN', 'SUCCESS'),
  check('DRAFT_STATUS', 'FAILED'),
  check('COMMITS_STATUS', 'SUCCESS'),
  check('CONFLICT', 'CHECKING'),
  check('NEED_REBASE', 'INACTIVE'),
  check('TITLE_REGEX', 'WARNING'),
  check('BLOCKED_STATUS', 'FAILED'),
  check('CI_STILL_RUNNING', 'FAILED'),
];

describe('visibleChecks', () => {
  it('sorts CHECKING, FAILED, WARNING, SUCCESS, keeping the server order within a status', () => {
    expect(visibleChecks(mixed, false).map((c) => `${c.status} ${c.identifier}`)).toEqual([
      'CHECKING CONFLICT',
      'FAILED DRAFT_STATUS',
      'FAILED BLOCKED_STATUS',
      'WARNING TITLE_REGEX',
      'SUCCESS NOT_OPEN',
      'SUCCESS COMMITS_STATUS',
    ]);
  });

  it('hides inactive checks and checks without a known message', () => {
    const identifiers = visibleChecks(mixed, false).map((c) => c.identifier);
    expect(identifiers).not.toContain('NEED_REBASE');
    expect(identifiers).not.toContain('CI_STILL_RUNNING');
  });

  it('shows only failed and checking checks while collapsed', () => {
    expect(visibleChecks(mixed, true).map((c) => c.identifier)).toEqual(['CONFLICT', 'DRAFT_STATUS', 'BLOCKED_STATUS']);
  });

  it('knows when expanding shows more', () => {
    expect(hasHiddenChecks(mixed)).toBe(true);
    expect(hasHiddenChecks([check('DRAFT_STATUS', 'FAILED')])).toBe(false);
  });
});

describe('summaryIcon', () => {
  it.each([
    ['warning if any warning', [check('TITLE_REGEX', 'WARNING'), check('CONFLICT', 'CHECKING'), check('DRAFT_STATUS', 'FAILED')], 'warning'],
    ['else loading if any checking', [check('CONFLICT', 'CHECKING'), check('DRAFT_STATUS', 'FAILED')], 'loading'],
    ['else failed if any failed', [check('DRAFT_STATUS', 'FAILED'), check('NOT_OPEN', 'SUCCESS')], 'failed'],
    ['else success', [check('NOT_OPEN', 'SUCCESS'), check('NEED_REBASE', 'INACTIVE')], 'success'],
    ['success with no checks at all', [], 'success'],
  ] as const)('%s', (_rule, checks, icon) => {
    expect(summaryIcon(checks)).toBe(icon);
  });
});

describe('summaryText', () => {
  it('counts failed checks, singular and plural', () => {
    expect(summaryText([check('DRAFT_STATUS', 'FAILED')], true)).toBe('Merge blocked: 1 check failed');
    expect(summaryText([check('DRAFT_STATUS', 'FAILED'), check('CONFLICT', 'FAILED')], true)).toBe('Merge blocked: 2 checks failed');
  });

  it('says it is checking while any check is', () => {
    expect(summaryText([check('CONFLICT', 'CHECKING'), check('DRAFT_STATUS', 'FAILED')], true)).toBe('Checking if merge request can be merged…');
  });

  it('warns with caution when only warnings remain', () => {
    expect(summaryText([check('TITLE_REGEX', 'WARNING'), check('NOT_OPEN', 'SUCCESS')], true)).toBe('Merge with caution: Override added');
  });

  it('is ready when everything passed, for those who can merge and for those who cannot', () => {
    expect(summaryText([check('NOT_OPEN', 'SUCCESS')], true)).toBe('Ready to merge!');
    expect(summaryText([check('NOT_OPEN', 'SUCCESS')], false)).toBe('Ready to merge by members who can write to the target branch.');
  });
});

describe('checkMessage', () => {
  it.each([
    ['DRAFT_STATUS', 'Merge request must not be draft.'],
    ['CONFLICT', 'Merge conflicts must be resolved.'],
    ['NEED_REBASE', 'Merge request must be rebased, because a fast-forward merge is not possible.'],
    ['BLOCKED_STATUS', 'Merge request dependencies must be merged.'],
    ['COMMITS_STATUS', 'Source branch exists and contains commits.'],
    ['NOT_OPEN', 'Merge request must be open.'],
    ['TITLE_REGEX', 'Title must match the expected format.'],
  ] as const)('%s: %s', (identifier, message) => {
    expect(checkMessage(identifier)).toBe(message);
  });

  it('has no message for CI_STILL_RUNNING', () => {
    expect(checkMessage('CI_STILL_RUNNING')).toBeUndefined();
  });
});
