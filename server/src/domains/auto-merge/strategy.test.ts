import { describe, expect, it } from 'vitest';
import { availableStrategies, chooseStrategy, preferredStrategy, type StrategyFacts } from './strategy.js';

const base: StrategyFacts = { open: true, canMerge: true, broken: false, mergeTrainsEnabled: false, mergeableNow: false, failedChecks: ['CI_STILL_RUNNING'], pipelineInProgress: true, pipelineComplete: false };

describe('availableStrategies', () => {
  it.each<[string, Partial<StrategyFacts>, string[]]>([
    ['a running pipeline offers merge when checks pass', {}, ['merge_when_checks_pass']],
    ['a failing check (waiting for approval) offers it too', { failedChecks: ['NOT_APPROVED'], pipelineInProgress: false, pipelineComplete: true }, ['merge_when_checks_pass']],
    ['draft, blocked, unresolved threads, requested changes: all can pass by themselves', { failedChecks: ['DRAFT_STATUS', 'BLOCKED_STATUS', 'DISCUSSIONS_NOT_RESOLVED', 'REQUESTED_CHANGES', 'CI_MUST_PASS'] }, ['merge_when_checks_pass']],
    ['a conflict needs someone to act: none', { failedChecks: ['CONFLICT'], pipelineInProgress: false, pipelineComplete: true }, []],
    ['a needed rebase or the title pattern, beside a running pipeline: none', { failedChecks: ['CI_STILL_RUNNING', 'NEED_REBASE'] }, []],
    ['the title pattern: none', { failedChecks: ['TITLE_REGEX'] }, []],
    ['trains on: a conflict is left to the train commit', { mergeTrainsEnabled: true, failedChecks: ['CONFLICT', 'CI_STILL_RUNNING'] }, ['add_to_merge_train_when_checks_pass']],
    ['mergeable now with no pipeline running: none (plain Merge)', { mergeableNow: true, failedChecks: [], pipelineInProgress: false, pipelineComplete: true }, []],
    ['mergeable with a running pipeline: merge when checks pass', { mergeableNow: true }, ['merge_when_checks_pass']],
    ['closed: none', { open: false }, []],
    ['no merge rights: none', { canMerge: false }, []],
    ['broken (no commits, missing branch): none', { broken: true }, []],
    ['trains on, pipeline running: add to train when checks pass', { mergeTrainsEnabled: true }, ['add_to_merge_train_when_checks_pass']],
    ['trains on, mergeable and pipeline done: merge train', { mergeTrainsEnabled: true, mergeableNow: true, pipelineInProgress: false, pipelineComplete: true }, ['merge_train']],
    ['trains on, mergeable, no pipeline at all: none', { mergeTrainsEnabled: true, mergeableNow: true, pipelineInProgress: false, pipelineComplete: false }, []],
  ])('%s', (_name, facts, expected) => {
    expect(availableStrategies({ ...base, ...facts })).toEqual(expected);
  });
});

describe('preferredStrategy: the fixed priority', () => {
  it.each<[string[], string | null]>([
    [['merge_when_checks_pass', 'merge_train', 'add_to_merge_train_when_checks_pass'], 'add_to_merge_train_when_checks_pass'],
    [['merge_when_checks_pass', 'merge_train'], 'merge_train'],
    [['merge_when_checks_pass'], 'merge_when_checks_pass'],
    [[], null],
  ])('%j → %s', (available, expected) => {
    expect(preferredStrategy(available as never)).toBe(expected);
  });
});

describe('chooseStrategy', () => {
  it.each<[string[], string | undefined, string | null]>([
    [['merge_when_checks_pass'], undefined, 'merge_when_checks_pass'],
    [['merge_when_checks_pass'], 'merge_when_pipeline_succeeds', 'merge_when_checks_pass'],
    [['merge_when_checks_pass'], 'merge_when_checks_pass', 'merge_when_checks_pass'],
    [['merge_when_checks_pass'], 'merge_train', null],
    [['merge_when_checks_pass'], 'nonsense', null],
    [[], undefined, null],
    [['add_to_merge_train_when_checks_pass'], undefined, 'add_to_merge_train_when_checks_pass'],
    [['add_to_merge_train_when_checks_pass'], 'add_to_merge_train_when_pipeline_succeeds', 'add_to_merge_train_when_checks_pass'],
    [['merge_train'], 'merge_train', 'merge_train'],
  ])('%j asked %s → %s', (available, requested, expected) => {
    expect(chooseStrategy(available as never, requested)).toBe(expected);
  });
});
