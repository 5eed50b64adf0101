import { describe, expect, it } from 'vitest';
import { confirmedStep, mergeButtonStep, mergeMomentItems, mergeMomentStep, type MergeFacts, type MergeStep } from './merge-moment';

const facts = (change: Partial<MergeFacts> = {}): MergeFacts => ({ preferredStrategy: null, status: 'success', pipelineFailed: false, retargeted: false, ...change });
const merge = (skipMergeTrain = false): MergeStep => ({ kind: 'merge', skipMergeTrain });
const confirm = (dialog: Extract<MergeStep, { kind: 'confirm' }>['dialog']): MergeStep => ({ kind: 'confirm', dialog });

describe('mergeMomentItems', () => {
  it.each<[string, string | null, boolean, string[]]>([
    ['no merge trains', 'merge_when_checks_pass', true, ['mergeImmediately']],
    ['a train strategy, skipping not allowed', 'merge_train', false, ['mergeImmediately']],
    ['merge_train, skipping allowed', 'merge_train', true, ['restart', 'skip']],
    ['add when checks pass, skipping allowed', 'add_to_merge_train_when_checks_pass', true, ['restart', 'skip']],
  ])('%s', (_, preferredStrategy, skipTrainAllowed, items) => {
    expect(mergeMomentItems({ preferredStrategy, skipTrainAllowed })).toEqual(items);
  });
});

describe('mergeButtonStep', () => {
  it.each<[string, Partial<MergeFacts>, MergeStep]>([
    ['a plain merge', {}, merge()],
    ['a failed pipeline asks to merge unverified changes', { status: 'failed', pipelineFailed: true }, confirm({ kind: 'unverified' })],
    ['a retargeted request asks too', { retargeted: true }, confirm({ kind: 'unverified' })],
    ['auto-merge', { preferredStrategy: 'merge_when_checks_pass', status: 'pending' }, { kind: 'autoMerge' }],
    ['adding to the train', { preferredStrategy: 'merge_train' }, { kind: 'autoMerge' }],
    ['adding a failed pipeline to the train asks first', { preferredStrategy: 'merge_train', status: 'pending', pipelineFailed: true }, confirm({ kind: 'trainFailedPipeline' })],
    ['adding without a pipeline status asks first', { preferredStrategy: 'merge_train', status: 'failed' }, confirm({ kind: 'trainFailedPipeline' })],
    ['add when checks pass does not ask', { preferredStrategy: 'add_to_merge_train_when_checks_pass', status: 'pending', pipelineFailed: true }, { kind: 'autoMerge' }],
  ])('%s', (_, change, step) => {
    expect(mergeButtonStep(facts(change))).toEqual(step);
  });
});

describe('mergeMomentStep and confirmedStep', () => {
  it.each<[string, Parameters<typeof mergeMomentStep>[0], Partial<MergeFacts>, MergeStep]>([
    ['merge immediately without trains merges', 'mergeImmediately', { preferredStrategy: 'merge_when_checks_pass' }, merge()],
    ['merge immediately without trains, failed pipeline: unverified', 'mergeImmediately', { preferredStrategy: 'merge_when_checks_pass', status: 'failed', pipelineFailed: true }, confirm({ kind: 'unverified' })],
    ['merge immediately with a train strategy asks', 'mergeImmediately', { preferredStrategy: 'merge_train' }, confirm({ kind: 'mergeImmediately' })],
    ['restart the train asks', 'restart', { preferredStrategy: 'merge_train' }, confirm({ kind: 'mergeTrainMergeType', type: 'restart' })],
    ['skip the train asks', 'skip', { preferredStrategy: 'add_to_merge_train_when_checks_pass' }, confirm({ kind: 'mergeTrainMergeType', type: 'skip' })],
  ])('%s', (_, item, change, step) => {
    expect(mergeMomentStep(item, facts(change))).toEqual(step);
  });

  it('a confirmed dialog merges (skipping the train only for skip) or adds to the train', () => {
    expect(confirmedStep({ kind: 'mergeImmediately' })).toEqual(merge(false));
    expect(confirmedStep({ kind: 'mergeTrainMergeType', type: 'restart' })).toEqual(merge(false));
    expect(confirmedStep({ kind: 'mergeTrainMergeType', type: 'skip' })).toEqual(merge(true));
    expect(confirmedStep({ kind: 'unverified' })).toEqual(merge(false));
    expect(confirmedStep({ kind: 'trainFailedPipeline' })).toEqual({ kind: 'autoMerge' });
  });
});
