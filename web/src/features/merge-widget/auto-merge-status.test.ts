import { describe, expect, it } from 'vitest';
import { autoMergeStatus, type AutoMergeStatus } from './auto-merge-status';

const ADA = { id: 'gid://gitlab/User/2', username: 'ada', name: 'Ada Lovelace', webUrl: '/ada', avatarUrl: null };
const GRACE = { ...ADA, id: 'gid://gitlab/User/3', username: 'grace', name: 'Grace Hopper' };
type Input = Parameters<typeof autoMergeStatus>[0];
const none: Input = { autoMergeStrategy: null, mergeUser: ADA, mergeTrainCar: null, mergeTrainsCount: null };

// GitLab's auto-merge mixin and MergeTrainPosition, one row per text.
const rows: [string, Partial<Input>, AutoMergeStatus][] = [
  ['merge when checks pass', { autoMergeStrategy: 'merge_when_checks_pass' }, { title: 'Set by Ada Lovelace to be merged automatically when all merge checks pass', position: null, cancelLabel: 'Cancel auto-merge' }],
  [
    'add to the train when checks pass, no train yet: it will start one',
    { autoMergeStrategy: 'add_to_merge_train_when_checks_pass', mergeTrainsCount: 0 },
    { title: 'Set by Ada Lovelace to start a merge train when all merge checks pass', position: null, cancelLabel: 'Remove from merge train' },
  ],
  [
    'add to the train when checks pass, a train running: it will join it',
    { autoMergeStrategy: 'add_to_merge_train_when_checks_pass', mergeTrainsCount: 2 },
    { title: 'Set by Ada Lovelace to be added to the merge train when all merge checks pass', position: null, cancelLabel: 'Remove from merge train' },
  ],
  ['merge_train set, not a car yet', { autoMergeStrategy: 'merge_train', mergeTrainsCount: 0 }, { title: 'Added to the merge train by Ada Lovelace', position: null, cancelLabel: 'Remove from merge train' }],
  [
    'the front car: a new train started',
    { mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 0, user: GRACE }, mergeTrainsCount: 1 },
    { title: 'Added to the merge train by Grace Hopper', position: 'A new merge train has started and this merge request is the first of the queue.', cancelLabel: 'Remove from merge train' },
  ],
  [
    'a car behind others: its place in the queue',
    { mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 2, user: GRACE }, mergeTrainsCount: 4 },
    { title: 'Added to the merge train by Grace Hopper', position: 'This merge request is #3 of 4 in queue.', cancelLabel: 'Remove from merge train' },
  ],
  ['a car whose adder is not visible: the merge user', { mergeTrainCar: { id: 'gid://gitlab/MergeTrains::Car/1', index: 1, user: null }, mergeTrainsCount: 2 }, { title: 'Added to the merge train by Ada Lovelace', position: 'This merge request is #2 of 2 in queue.', cancelLabel: 'Remove from merge train' }],
];

describe('autoMergeStatus', () => {
  it.each(rows)('%s', (_case, overrides, expected) => {
    expect(autoMergeStatus({ ...none, ...overrides })).toEqual(expected);
  });
});
