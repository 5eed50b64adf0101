import { describe, expect, it } from 'vitest';
import { applyOperationMode } from './mutations.js';

describe('applyOperationMode (MutationOperationMode)', () => {
  it.each([
    ['REPLACE', [1, 2], [3, 3], [3]],
    ['APPEND', [1, 2], [2, 3], [1, 2, 3]],
    ['REMOVE', [1, 2, 3], [2], [1, 3]],
    ['REPLACE with nobody clears', [1], [], []],
  ] as const)('%s', (mode, current, named, expected) => {
    expect(applyOperationMode(current, named, mode.split(' ')[0] as 'REPLACE')).toEqual(expected);
  });
});
