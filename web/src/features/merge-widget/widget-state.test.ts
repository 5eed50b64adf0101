import { describe, expect, it } from 'vitest';
import { deriveWidgetState, missingBranchType, type WidgetStateInput, type WidgetStateName } from './widget-state';

/** An open, mergeable request that the user can merge: every row below changes what its rule needs. */
const ready: WidgetStateInput = {
  state: 'opened',
  mergeOngoing: false,
  detailedMergeStatus: 'MERGEABLE',
  commitCount: 2,
  archived: false,
  sourceBranchExists: true,
  targetBranchExists: true,
  canMerge: true,
  diffHeadSha: 'a'.repeat(40),
  lastKnownSha: 'a'.repeat(40),
  autoMergeEnabled: false,
  preferredAutoMergeStrategy: null,
  clientMergeError: null,
};

// One row per rule of the widget's state, in GitLab's order, and the rows that show a rule's precedence.
const rows: [string, Partial<WidgetStateInput>, WidgetStateName | null][] = [
  ['1. merging when a merge is ongoing', { mergeOngoing: true }, 'merging'],
  ['1. merging wins over every open-state rule', { mergeOngoing: true, detailedMergeStatus: 'PREPARING', commitCount: 0, archived: true }, 'merging'],
  ['1. merging for a locked request (merge in progress)', { state: 'locked' }, 'merging'],
  ['failedToMerge when the client holds a merge error', { clientMergeError: 'Branch cannot be merged' }, 'failedToMerge'],
  ['2. preparing when the detailed status is PREPARING', { detailedMergeStatus: 'PREPARING' }, 'preparing'],
  ['2. preparing before nothingToMerge', { detailedMergeStatus: 'PREPARING', commitCount: 0 }, 'preparing'],
  ['2. nothingToMerge when there are no commits', { commitCount: 0 }, 'nothingToMerge'],
  ['2. nothingToMerge before archived', { commitCount: 0, archived: true }, 'nothingToMerge'],
  ['2. archived when the project is archived', { archived: true }, 'archived'],
  ['2. archived before missingBranch', { archived: true, sourceBranchExists: false }, 'archived'],
  ['2. missingBranch when the source branch was removed', { sourceBranchExists: false }, 'missingBranch'],
  ['2. missingBranch when the target branch is absent', { targetBranchExists: false }, 'missingBranch'],
  ['2. no missingBranch when the detailed status is NOT_OPEN', { sourceBranchExists: false, detailedMergeStatus: 'NOT_OPEN' }, null],
  ['2. missingBranch before checking', { sourceBranchExists: false, detailedMergeStatus: 'CHECKING' }, 'missingBranch'],
  ['2. checking when the detailed status is CHECKING', { detailedMergeStatus: 'CHECKING' }, 'checking'],
  ['2. checking when the status is UNCHECKED', { detailedMergeStatus: 'UNCHECKED' }, 'checking'],
  ['2. checking before shaMismatch', { detailedMergeStatus: 'CHECKING', diffHeadSha: 'b'.repeat(40) }, 'checking'],
  ['2. shaMismatch when the user can merge and the head moved', { diffHeadSha: 'b'.repeat(40) }, 'shaMismatch'],
  ['2. no shaMismatch for a user who cannot merge', { diffHeadSha: 'b'.repeat(40), canMerge: false }, 'readyToMerge'],
  ['2. no shaMismatch before the head is known', { lastKnownSha: null }, 'readyToMerge'],
  ['2. readyToMerge when the detailed status is MERGEABLE', {}, 'readyToMerge'],
  ['2. readyToMerge while CI is still running', { detailedMergeStatus: 'CI_STILL_RUNNING' }, 'readyToMerge'],
  ['2. readyToMerge when the merge train is preferred and auto-merge is off', { detailedMergeStatus: 'CI_MUST_PASS', preferredAutoMergeStrategy: 'merge_train' }, 'readyToMerge'],
  ['2. auto-merge on: its panel, not the merge controls', { detailedMergeStatus: 'CI_MUST_PASS', preferredAutoMergeStrategy: 'merge_train', autoMergeEnabled: true }, 'autoMergeEnabled'],
  ['2. auto-merge on while every check passes (the merge is on its way)', { detailedMergeStatus: 'MERGEABLE', autoMergeEnabled: true }, 'autoMergeEnabled'],
  ['2. auto-merge whose merge failed', { detailedMergeStatus: 'NOT_APPROVED', autoMergeEnabled: true, mergeError: 'Merge request is not mergeable' }, 'autoMergeFailed'],
  ['2. checking wins over auto-merge', { detailedMergeStatus: 'CHECKING', autoMergeEnabled: true }, 'checking'],
  ['2. on a merge train (auto-merge handed it over): its panel, not the merge controls', { detailedMergeStatus: 'MERGEABLE', onMergeTrain: true }, 'autoMergeEnabled'],
  ['2. on a merge train while its checks run again', { detailedMergeStatus: 'CI_STILL_RUNNING', onMergeTrain: true }, 'autoMergeEnabled'],
  ['2. checking wins over the merge train', { detailedMergeStatus: 'CHECKING', onMergeTrain: true }, 'checking'],
  ['2. otherwise no state: a draft', { detailedMergeStatus: 'DRAFT_STATUS' }, null],
  ['2. otherwise no state: a conflict', { detailedMergeStatus: 'CONFLICT' }, null],
  ['2. otherwise no state: a rebase is needed', { detailedMergeStatus: 'NEED_REBASE' }, null],
  ['4. merged when the request is merged', { state: 'merged', sourceBranchExists: false, commitCount: 0 }, 'merged'],
  ['4. merged ignores a stale client merge error', { state: 'merged', clientMergeError: 'x' }, 'merged'],
  ['4. closed when the request is closed', { state: 'closed', detailedMergeStatus: 'NOT_OPEN' }, 'closed'],
  ['4. closed even when its branch is gone or the project archived', { state: 'closed', sourceBranchExists: false, archived: true }, 'closed'],
];

describe('deriveWidgetState', () => {
  it.each(rows)('%s', (_rule, overrides, expected) => {
    expect(deriveWidgetState({ ...ready, ...overrides })).toBe(expected);
  });
});

describe('missingBranchType', () => {
  it('names the source branch when it was removed, else the target', () => {
    expect(missingBranchType({ sourceBranchExists: false })).toBe('source');
    expect(missingBranchType({ sourceBranchExists: true })).toBe('target');
  });
});
