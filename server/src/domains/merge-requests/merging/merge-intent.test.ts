import { describe, expect, it } from 'vitest';
import { canTransition, isUnfinished, MERGE_INTENT_STATES, reconcileAction, type MergeIntentState } from './merge-intent.js';

describe('merge intent state machine', () => {
  const allowed: Array<[MergeIntentState, MergeIntentState]> = [
    ['pending', 'ref_moved'],
    ['pending', 'done'],
    ['pending', 'failed'],
    ['ref_moved', 'done'],
    ['ref_moved', 'failed'],
  ];

  it.each(MERGE_INTENT_STATES.flatMap((from) => MERGE_INTENT_STATES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(allowed.some(([a, b]) => a === from && b === to));
  });

  it('treats pending and ref_moved as unfinished', () => {
    expect(MERGE_INTENT_STATES.filter(isUnfinished)).toEqual(['pending', 'ref_moved']);
  });
});

describe('reconcileAction', () => {
  it.each([
    // state, target contains the merge → action
    ['pending', true, 'finalize'],
    ['pending', false, 'fail'],
    ['ref_moved', true, 'finalize'],
    // the ref moved and was later rewound (a force push): the request must not end merged
    ['ref_moved', false, 'fail'],
    ['done', true, 'none'],
    ['done', false, 'none'],
    ['failed', true, 'none'],
    ['failed', false, 'none'],
  ] as const)('%s (contained: %s) → %s', (state, contained, action) => {
    expect(reconcileAction({ state }, contained).action).toBe(action);
  });

  it('names an interruption as the reason a pending merge failed', () => {
    expect(reconcileAction({ state: 'pending' }, false)).toEqual({ action: 'fail', reason: 'interrupted' });
  });
});
