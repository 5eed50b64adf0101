import type { ReadyStatus } from './merge-button';
import { needsUnverifiedConfirmation } from './pipeline-rules';

/**
 * What the merge button and the merge-moment dropdown do on a project with merge trains,
 * as GitLab's ready-to-merge panel decides it (pure; table-tested):
 *
 * - With a train strategy preferred ('Add to merge train', 'Add to merge train when all merge
 *   checks pass'), merging now bypasses the train, so 'Merge immediately' first asks (the merge
 *   immediately confirmation). Where the project allows skipping the train, the dropdown offers
 *   instead the two merge train merge types: restart the train or skip it (don't restart),
 *   each confirmed in its own dialog; only skip sends `skip_merge_train`.
 * - Adding to a train ('merge_train') while the pipeline failed asks first: 'Start merge train'
 *   (the merge-train variant of the pipeline-failed confirmation).
 * - Otherwise, the pipeline-failed confirmation ('Merge unverified changes?') of a plain merge.
 * A confirmed dialog goes straight to the merge: no second dialog.
 */

export type MergeTrainMergeType = 'restart' | 'skip';

export type MergeConfirmation =
  | { kind: 'unverified' }
  | { kind: 'mergeImmediately' }
  | { kind: 'trainFailedPipeline' }
  | { kind: 'mergeTrainMergeType'; type: MergeTrainMergeType };

/** What a click leads to: a merge now, the auto-merge call with the preferred strategy, or a dialog first. */
export type MergeStep = { kind: 'merge'; skipMergeTrain: boolean } | { kind: 'autoMerge' } | { kind: 'confirm'; dialog: MergeConfirmation };

export type MergeMomentItem = 'mergeImmediately' | MergeTrainMergeType;

const TRAIN_STRATEGIES: ReadonlySet<string> = new Set(['merge_train', 'add_to_merge_train_when_checks_pass']);

export function isTrainStrategy(strategy: string | null): boolean {
  return strategy !== null && TRAIN_STRATEGIES.has(strategy);
}

export interface MergeFacts {
  /** the preferred auto-merge strategy, null when none is available */
  preferredStrategy: string | null;
  status: ReadyStatus;
  pipelineFailed: boolean;
  retargeted: boolean;
}

/** The merge-moment dropdown's items: the two merge train merge types where skipping is allowed, else 'Merge immediately'. */
export function mergeMomentItems(input: { preferredStrategy: string | null; skipTrainAllowed: boolean }): MergeMomentItem[] {
  return isTrainStrategy(input.preferredStrategy) && input.skipTrainAllowed ? ['restart', 'skip'] : ['mergeImmediately'];
}

/** The merge button: auto-merge when a strategy is available (asking first when adding a failed pipeline to a train), else merge. */
export function mergeButtonStep(facts: MergeFacts): MergeStep {
  if (facts.preferredStrategy !== null) {
    const pipelineFailed = facts.status === 'failed' || facts.pipelineFailed;
    return facts.preferredStrategy === 'merge_train' && pipelineFailed ? { kind: 'confirm', dialog: { kind: 'trainFailedPipeline' } } : { kind: 'autoMerge' };
  }
  return plainMerge(facts);
}

/** An item of the merge-moment dropdown. */
export function mergeMomentStep(item: MergeMomentItem, facts: MergeFacts): MergeStep {
  if (item !== 'mergeImmediately') return { kind: 'confirm', dialog: { kind: 'mergeTrainMergeType', type: item } };
  if (isTrainStrategy(facts.preferredStrategy)) return { kind: 'confirm', dialog: { kind: 'mergeImmediately' } };
  return plainMerge(facts);
}

/** What a confirmed dialog does. */
export function confirmedStep(dialog: MergeConfirmation): MergeStep {
  if (dialog.kind === 'trainFailedPipeline') return { kind: 'autoMerge' };
  return { kind: 'merge', skipMergeTrain: dialog.kind === 'mergeTrainMergeType' && dialog.type === 'skip' };
}

function plainMerge(facts: MergeFacts): MergeStep {
  return needsUnverifiedConfirmation({ status: facts.status, pipelineFailed: facts.pipelineFailed, retargeted: facts.retargeted, confirmed: false })
    ? { kind: 'confirm', dialog: { kind: 'unverified' } }
    : { kind: 'merge', skipMergeTrain: false };
}
