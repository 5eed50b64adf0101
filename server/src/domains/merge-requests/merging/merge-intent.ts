/**
 * The merge intent's state machine (table merge_intents, migration 0004). An intent is
 * written before the target branch moves, so a process killed at any point leaves a record
 * that reconciliation can finish or fail from the repository's truth. Pure.
 *
 *   pending ──CAS won──▶ ref_moved ──merge recorded──▶ done
 *      │                    │
 *      └──────▶ failed ◀────┘   (the target does not contain the merge: lost race, interrupted)
 *
 * A merge moves the ref and finalizes (pending → done) in one transaction holding the intent's
 * lock; pending → done also happens in reconciliation when the process died after moving the
 * ref but before that commit (a ref move cannot be part of a database transaction). ref_moved
 * is no longer written by merges; intents left in it by earlier versions still settle.
 */
export const MERGE_INTENT_STATES = ['pending', 'ref_moved', 'done', 'failed'] as const;
export type MergeIntentState = (typeof MERGE_INTENT_STATES)[number];

const TRANSITIONS: Readonly<Record<MergeIntentState, readonly MergeIntentState[]>> = {
  pending: ['ref_moved', 'done', 'failed'],
  ref_moved: ['done', 'failed'],
  done: [],
  failed: [],
};

export const UNFINISHED_STATES: readonly MergeIntentState[] = ['pending', 'ref_moved'];

export function canTransition(from: MergeIntentState, to: MergeIntentState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isUnfinished(state: MergeIntentState): boolean {
  return UNFINISHED_STATES.includes(state);
}

/** Why an intent failed; stored in merge_intents.error for operators. */
export type IntentFailure = 'target-moved' | 'interrupted' | 'not-mergeable';

export type ReconcileAction = { action: 'finalize' } | { action: 'fail'; reason: IntentFailure } | { action: 'none' };

/**
 * What reconciliation does with an intent, given whether the target branch contains the
 * commit the intent meant to put there (new_sha reachable from the branch tip). The merge
 * request ends merged only in that case; otherwise the intent fails and the request stays
 * open, so the merge can be retried. Nothing is ever moved back: no commit is lost. A done
 * intent's after-merge steps are a queue job enqueued with it (merge-settlement.ts).
 */
export function reconcileAction(intent: { state: MergeIntentState }, targetContainsMerge: boolean): ReconcileAction {
  if (!isUnfinished(intent.state)) return { action: 'none' };
  return targetContainsMerge ? { action: 'finalize' } : { action: 'fail', reason: 'interrupted' };
}
