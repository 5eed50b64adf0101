import { describe, expect, it } from 'vitest';
import { readyStatus, type ReadyStatus } from './merge-button';
import {
  eventTypeHelp,
  idOf,
  isPipelineBlocked,
  mergeButtonVariant,
  needsUnverifiedConfirmation,
  pipelineContainerState,
  pipelineFlags,
  pipelinePreventsMerge,
  showSuggestPipeline,
} from './pipeline-rules';

const status = (group: string | null) => ({ icon: null, text: null, label: null, group });

describe('pipelineContainerState', () => {
  it.each([
    [{ hasCi: false, pipeline: null, retargeted: false }, null],
    [{ hasCi: true, pipeline: null, retargeted: false }, 'checking'],
    [{ hasCi: true, pipeline: { status: 'RUNNING' }, retargeted: false }, 'pipeline'],
    [{ hasCi: true, pipeline: { status: '' }, retargeted: false }, 'ciError'],
    [{ hasCi: true, pipeline: { status: '' }, retargeted: true }, 'ciError'],
    [{ hasCi: true, pipeline: { status: 'SUCCESS' }, retargeted: true }, 'retargeted'],
    [{ hasCi: false, pipeline: null, retargeted: true }, 'retargeted'],
  ] as const)('%o shows %s', (input, expected) => {
    expect(pipelineContainerState(input)).toBe(expected);
  });
});

describe('readyStatus (the pipeline inputs)', () => {
  it.each<[string, Parameters<typeof readyStatus>[0], ReadyStatus]>([
    ['CI without a pipeline status', { hasCi: true, pipelineStatus: null, onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'failed'],
    ['failed pipeline', { hasCi: true, pipelineStatus: 'FAILED', onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'failed'],
    ['canceled pipeline', { hasCi: true, pipelineStatus: 'CANCELED', onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'failed'],
    ['must succeed without CI', { hasCi: false, pipelineStatus: null, onlyAllowMergeIfPipelineSucceeds: true, autoMergeAvailable: false }, 'failed'],
    ['auto-merge available', { hasCi: true, pipelineStatus: 'RUNNING', onlyAllowMergeIfPipelineSucceeds: true, autoMergeAvailable: true }, 'pending'],
    ['running pipeline', { hasCi: true, pipelineStatus: 'RUNNING', onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'success'],
    ['passed pipeline', { hasCi: true, pipelineStatus: 'SUCCESS', onlyAllowMergeIfPipelineSucceeds: true, autoMergeAvailable: false }, 'success'],
    ['skipped pipeline', { hasCi: true, pipelineStatus: 'SKIPPED', onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'success'],
    ['no CI', { hasCi: false, pipelineStatus: null, onlyAllowMergeIfPipelineSucceeds: false, autoMergeAvailable: false }, 'success'],
  ])('%s: %s', (_, input, expected) => {
    expect(readyStatus(input)).toBe(expected);
  });
});

describe('which dialog the Merge button opens', () => {
  it.each<[string, Parameters<typeof needsUnverifiedConfirmation>[0], boolean]>([
    ['failed-like status and failed pipeline', { status: 'failed', pipelineFailed: true, retargeted: false, confirmed: false }, true],
    ['failed-like status, pipeline not failed (no status)', { status: 'failed', pipelineFailed: false, retargeted: false, confirmed: false }, false],
    ['success status', { status: 'success', pipelineFailed: false, retargeted: false, confirmed: false }, false],
    ['retargeted', { status: 'success', pipelineFailed: false, retargeted: true, confirmed: false }, true],
    ['already confirmed', { status: 'failed', pipelineFailed: true, retargeted: true, confirmed: true }, false],
  ])('%s: %s', (_, input, expected) => {
    expect(needsUnverifiedConfirmation(input)).toBe(expected);
  });
});

describe('the pipeline flags and the Merge button', () => {
  it.each([
    ['SUCCESS', { passing: true, failed: false, skipped: false }],
    ['FAILED', { passing: false, failed: true, skipped: false }],
    ['CANCELED', { passing: false, failed: true, skipped: false }],
    ['SKIPPED', { passing: false, failed: false, skipped: true }],
    ['RUNNING', { passing: false, failed: false, skipped: false }],
  ])('%s', (pipelineStatus, flags) => {
    expect(pipelineFlags({ status: pipelineStatus, detailedStatus: status(null) })).toEqual(flags);
  });

  it('is a danger button when failed-like or failed', () => {
    expect(mergeButtonVariant({ status: 'failed', pipelineFailed: false })).toBe('danger');
    expect(mergeButtonVariant({ status: 'success', pipelineFailed: true })).toBe('danger');
    expect(mergeButtonVariant({ status: 'success', pipelineFailed: false })).toBe('primary');
  });

  it.each([
    [true, 'manual', 'CI_STILL_RUNNING', true, true],
    [false, 'manual', 'MERGEABLE', false, false],
    [true, 'success', 'MERGEABLE', false, false],
    [true, 'running', 'CI_STILL_RUNNING', false, true],
  ])('must succeed %s, group %s, status %s: blocked %s, prevents merge %s', (mustSucceed, group, detailed, blocked, prevents) => {
    const input = { onlyAllowMergeIfPipelineSucceeds: mustSucceed, pipeline: { detailedStatus: status(group) }, detailedMergeStatus: detailed };
    expect(isPipelineBlocked(input)).toBe(blocked);
    expect(pipelinePreventsMerge(input)).toBe(prevents);
  });
});

describe('showSuggestPipeline', () => {
  const base = { hasCi: false, canPushToSourceBranch: true, sourceBranchExists: true, open: true, dismissed: false };
  it.each<[string, Partial<Omit<typeof base, 'dismissed'>> & { dismissed?: boolean | null }, boolean]>([
    ['no CI, may push, not dismissed', {}, true],
    ['has CI', { hasCi: true }, false],
    ['may not push', { canPushToSourceBranch: false }, false],
    ['dismissed', { dismissed: true }, false],
    ['callouts not loaded yet', { dismissed: null }, false],
    ['closed', { open: false }, false],
    ['source branch gone', { sourceBranchExists: false }, false],
  ])('%s: %s', (_, change, expected) => {
    expect(showSuggestPipeline({ ...base, ...change })).toBe(expected);
  });
});

it('names the help of each event type and reads global ids', () => {
  expect(eventTypeHelp('Merged results pipeline')?.title).toBe('What is a merged results pipeline?');
  expect(eventTypeHelp('Merge request pipeline')?.content).toBe("Merge request pipeline runs on the contents of the merge request's source branch, not the target branch.");
  expect(eventTypeHelp('Pipeline')).toBeNull();
  expect(idOf('gid://gitlab/Ci::Pipeline/42')).toBe(42);
});
