import { describe, expect, it } from 'vitest';
import { mergeTrainRetryRefused } from '../pipelines/pipelines.service.js';
import { carIsCurrent, mergeTrainsEnabled } from './car.js';
import { addRefusal, MERGE_TRAIN_MESSAGES } from './merge-trains.service.js';

describe('carIsCurrent: does a car still test what it would merge?', () => {
  const car = { status: 'fresh' as const, pipeline_id: 7, base_sha: 'b'.repeat(40), train_sha: 't'.repeat(40) };
  it.each([
    ['a fresh car on the expected base', car, 'b'.repeat(40), true],
    ['the target moved, or a car ahead left or restarted', car, 'c'.repeat(40), false],
    ['no pipeline yet', { ...car, pipeline_id: null }, 'b'.repeat(40), false],
    ['idle (just added)', { ...car, status: 'idle' as const }, 'b'.repeat(40), false],
    ['stale (its merge was interrupted)', { ...car, status: 'stale' as const }, 'b'.repeat(40), false],
  ])('%s', (_name, input, base, expected) => expect(carIsCurrent(input, base)).toBe(expected));
});

describe('mergeTrainsEnabled: trains need merged results pipelines', () => {
  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
  ])('trains %s, merged results %s → %s', (trains, merged, expected) => expect(mergeTrainsEnabled({ merge_trains_enabled: trains, merge_pipelines_enabled: merged })).toBe(expected));
});

describe('addRefusal', () => {
  const open = { state: 'opened' as const, draft: false, head_commit_sha: 'a'.repeat(40), commits_count: 1 };
  it.each([
    ['an open request with commits', open, null],
    ['a merged one', { ...open, state: 'merged' as const }, MERGE_TRAIN_MESSAGES.notOpen],
    ['a draft', { ...open, draft: true }, MERGE_TRAIN_MESSAGES.draft],
    ['no commits', { ...open, commits_count: 0 }, MERGE_TRAIN_MESSAGES.noCommits],
  ])('%s', (_name, mergeRequest, expected) => expect(addRefusal(mergeRequest)).toBe(expected));
});

describe('mergeTrainRetryRefused: a finished merge train pipeline is not retried', () => {
  const train = { merge_request_id: 1, ref: 'refs/merge-requests/3/train' };
  it.each([
    ['a failed train pipeline', { ...train, status: 'failed' }, true],
    ['a passed one', { ...train, status: 'success' }, true],
    ['one still running (a job may be retried)', { ...train, status: 'running' }, false],
    ['a merged results pipeline', { ...train, ref: 'refs/merge-requests/3/merge', status: 'failed' }, false],
    ['a branch pipeline', { merge_request_id: null, ref: 'main', status: 'failed' }, false],
  ] as const)('%s', (_name, pipeline, expected) => expect(mergeTrainRetryRefused(pipeline as never)).toBe(expected));
});
