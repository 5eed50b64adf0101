import { describe, expect, it } from 'vitest';
import {
  canRebase,
  commitMessageRows,
  isMergeButtonDisabled,
  mergeButtonText,
  mergePayload,
  readyStatus,
  shouldShowMergeControls,
  squashSettings,
  withServerDefault,
  type ReadyStatusInput,
} from './merge-button';

const noCi: ReadyStatusInput = { hasCi: false, pipelineStatus: null, onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false };

describe('readyStatus', () => {
  it.each([
    ['failed-like when CI exists but the pipeline is missing', { hasCi: true }, 'failed'],
    ['failed-like when "pipeline must succeed" conflicts with no CI', { onlyAllowMergeIfPipelineSucceeds: true }, 'failed'],
    ['pending when auto-merge is available', { hasCi: true, pipelineStatus: 'RUNNING', autoMergeAvailable: true }, 'pending'],
    ['failed-like when the pipeline FAILED', { hasCi: true, pipelineStatus: 'FAILED' }, 'failed'],
    ['failed-like when the pipeline was CANCELED', { hasCi: true, pipelineStatus: 'CANCELED' }, 'failed'],
    ['success with a passing pipeline', { hasCi: true, pipelineStatus: 'SUCCESS' }, 'success'],
    ['success without CI', {}, 'success'],
  ] as const)('%s', (_rule, overrides, status) => {
    expect(readyStatus({ ...noCi, ...overrides })).toBe(status);
  });
});

describe('mergeButtonText', () => {
  const base = { mergingImmediately: false, autoMergeText: null, status: 'success' as const, pipelineFailed: false };
  it.each([
    ["'Merge in progress' while merging immediately", { mergingImmediately: true, autoMergeText: 'Set to auto-merge' }, 'Merge in progress'],
    ['the auto-merge text when available', { autoMergeText: 'Set to auto-merge', status: 'failed' as const }, 'Set to auto-merge'],
    ["'Merge…' when failed-like", { status: 'failed' as const }, 'Merge…'],
    ["'Merge…' when the pipeline failed", { pipelineFailed: true }, 'Merge…'],
    ["'Merge' otherwise", {}, 'Merge'],
  ])('%s', (_rule, overrides, text) => {
    expect(mergeButtonText({ ...base, ...overrides })).toBe(text);
  });
});

describe('isMergeButtonDisabled', () => {
  const enabled = {
    mergeMessage: 'Merge branch',
    squashMessage: '',
    showMergeEditor: true,
    showSquashEditor: false,
    showMergeControls: true,
    requestInProgress: false,
    preventMerge: false,
  };
  it.each([
    ['enabled when everything is in place', {}, false],
    ['disabled when the merge commit message is empty', { mergeMessage: '  ' }, true],
    ['disabled when the squash commit message is empty while squashing', { showSquashEditor: true }, true],
    ['an empty merge message does not matter for a fast-forward-only project', { mergeMessage: '', showMergeEditor: false }, false],
    ['disabled when merge controls are not shown', { showMergeControls: false }, true],
    ['disabled while a request is in progress', { requestInProgress: true }, true],
    ['disabled when preventMerge is set', { preventMerge: true }, true],
  ])('%s', (_rule, overrides, disabled) => {
    expect(isMergeButtonDisabled({ ...enabled, ...overrides })).toBe(disabled);
  });
});

describe('shouldShowMergeControls', () => {
  it('needs merge rights, no auto-merge and the readyToMerge state', () => {
    expect(shouldShowMergeControls({ canMerge: true, autoMergeEnabled: false, state: 'readyToMerge' })).toBe(true);
    expect(shouldShowMergeControls({ canMerge: false, autoMergeEnabled: false, state: 'readyToMerge' })).toBe(false);
    expect(shouldShowMergeControls({ canMerge: true, autoMergeEnabled: true, state: 'readyToMerge' })).toBe(false);
    expect(shouldShowMergeControls({ canMerge: true, autoMergeEnabled: false, state: null })).toBe(false);
  });
});

describe('squashSettings', () => {
  it.each([
    ['required by the project: checked and read-only', { squashReadOnly: true, squashOnMerge: true, squash: false, squashOption: 'always' as const }, { available: true, readOnly: true, initial: true }],
    ['forbidden by the project: hidden', { squashReadOnly: true, squashOnMerge: false, squash: true, squashOption: 'never' as const }, { available: false, readOnly: true, initial: false }],
    ['encouraged: follows the merge request', { squashReadOnly: false, squashOnMerge: true, squash: true, squashOption: 'default_on' as const }, { available: true, readOnly: false, initial: true }],
    ['allowed: follows the merge request', { squashReadOnly: false, squashOnMerge: false, squash: false, squashOption: 'default_off' as const }, { available: true, readOnly: false, initial: false }],
  ])('%s', (_rule, input, expected) => {
    expect(squashSettings(input)).toEqual(expected);
  });
});

describe('canRebase', () => {
  it('needs diverged commits and push rights on the source branch', () => {
    expect(canRebase({ divergedCommitsCount: 2, pushToSourceBranch: true })).toBe(true);
    expect(canRebase({ divergedCommitsCount: 0, pushToSourceBranch: true })).toBe(false);
    expect(canRebase({ divergedCommitsCount: 2, pushToSourceBranch: false })).toBe(false);
  });
});

describe('commit message editors', () => {
  it('has 7 rows, growing with the text to at most 32', () => {
    expect(commitMessageRows('one line')).toBe(7);
    expect(commitMessageRows(Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n'))).toBe(12);
    expect(commitMessageRows(Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n'))).toBe(32);
  });

  it('takes the server default until touched, and never after', () => {
    const fresh = withServerDefault({ value: '', touched: false }, 'Merge branch a into b');
    expect(fresh).toEqual({ value: 'Merge branch a into b', touched: false });
    const edited = { value: 'My message', touched: true };
    expect(withServerDefault(edited, 'Merge branch c into b')).toBe(edited);
  });
});

describe('mergePayload', () => {
  const base = {
    sha: 'a'.repeat(40),
    removeSourceBranch: true,
    squash: false,
    squashAvailable: true,
    squashMessage: { value: 'Squashed', touched: false },
    mergeMessage: { value: 'Merge branch', touched: false },
    ffOnly: false,
  };

  it('sends sha, squash and the branch choice, and no message that was not edited', () => {
    expect(mergePayload(base)).toEqual({ sha: 'a'.repeat(40), should_remove_source_branch: true, squash: false, skip_merge_train: false });
    expect(mergePayload({ ...base, skipMergeTrain: true }).skip_merge_train).toBe(true);
  });

  it('sends the merge commit message only when edited', () => {
    expect(mergePayload({ ...base, mergeMessage: { value: 'Mine', touched: true } }).merge_commit_message).toBe('Mine');
    expect(mergePayload({ ...base, ffOnly: true, mergeMessage: { value: 'Mine', touched: true } })).not.toHaveProperty('merge_commit_message');
  });

  it('sends the squash commit message only when squash is available and it was edited', () => {
    const edited = { ...base, squash: true, squashMessage: { value: 'One commit', touched: true } };
    expect(mergePayload(edited).squash_commit_message).toBe('One commit');
    expect(mergePayload({ ...edited, squashAvailable: false })).not.toHaveProperty('squash_commit_message');
    expect(mergePayload({ ...edited, squashMessage: { value: 'x', touched: false } })).not.toHaveProperty('squash_commit_message');
  });
});
