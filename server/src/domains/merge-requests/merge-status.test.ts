import { describe, expect, it } from 'vitest';
import { detailedMergeStatus, publicMergeStatus, type MergeStatusFacts } from './merge-status.js';

const facts = (overrides: Partial<MergeStatusFacts>): MergeStatusFacts => ({ state: 'opened', draft: false, mergeStatus: 'can_be_merged', commitsCount: 2, ...overrides });

describe('detailedMergeStatus', () => {
  it.each([
    ['no version recorded yet', { commitsCount: null, mergeStatus: 'unchecked' }, 'preparing'],
    ['mergeability being checked', { mergeStatus: 'checking' }, 'checking'],
    ['mergeability not checked yet', { mergeStatus: 'unchecked' }, 'unchecked'],
    ['closed', { state: 'closed' }, 'not_open'],
    ['merged', { state: 'merged' }, 'not_open'],
    ['draft', { draft: true }, 'draft_status'],
    ['draft wins over conflicts', { draft: true, mergeStatus: 'cannot_be_merged' }, 'draft_status'],
    ['no commits', { commitsCount: 0 }, 'commits_status'],
    ['conflicts', { mergeStatus: 'cannot_be_merged' }, 'conflict'],
    ['everything fine', {}, 'mergeable'],
  ] as const)('%s → %s', (_name, overrides, expected) => {
    expect(detailedMergeStatus(facts(overrides as Partial<MergeStatusFacts>))).toBe(expected);
  });

  it('shows internal recheck states as checking', () => {
    expect(publicMergeStatus('cannot_be_merged_rechecking')).toBe('checking');
    expect(publicMergeStatus('can_be_merged')).toBe('can_be_merged');
  });
});
