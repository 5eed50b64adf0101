import { describe, expect, it } from 'vitest';
import { byTargetBranch, type MergeTrainCar } from './api';

const car = (id: number, target_branch: string) => ({ id, target_branch }) as MergeTrainCar;

describe('byTargetBranch', () => {
  it('groups the cars per train, keeping each queue in order, trains by branch name', () => {
    expect(byTargetBranch([car(1, 'main'), car(2, 'stable'), car(3, 'main')]).map((train) => [train.targetBranch, train.cars.map((c) => c.id)])).toEqual([
      ['main', [1, 3]],
      ['stable', [2]],
    ]);
  });
  it('has no trains without cars', () => expect(byTargetBranch([])).toEqual([]));
});
