import type { DetailedMergeStatus, MergeRequestStateName } from '@tributary/contracts/merge-widget';

/**
 * The widget's state, derived by one pure function in exactly GitLab's order
 * (GitLab's stores/get_state_key.js):
 *
 *   1. merging, when a merge is ongoing;
 *   2. for an open request, the first of: preparing, nothingToMerge, archived, missingBranch,
 *      checking, shaMismatch, readyToMerge; otherwise no state (the merge checks block);
 *   4. for a request that is not open: merged or closed.
 *
 * (3, Geo secondaries, is out of scope.) failedToMerge is the client's: a merge error the
 * merge call or the merging poll reported sets it until the widget refreshes. An open request
 * with auto-merge set shows autoMergeEnabled (its panel above the merge checks), or
 * autoMergeFailed when its merge failed (the server's merge error); so does a request on a merge
 * train (GitLab keeps its merge_train auto-merge set while it is a car).
 */
export type WidgetStateName =
  | 'merging'
  | 'failedToMerge'
  | 'preparing'
  | 'nothingToMerge'
  | 'archived'
  | 'missingBranch'
  | 'checking'
  | 'shaMismatch'
  | 'readyToMerge'
  | 'autoMergeEnabled'
  | 'autoMergeFailed'
  | 'merged'
  | 'closed';

/** The strategy GitLab calls `merge_train`; a widget that prefers it is ready even while checks run. */
export const MERGE_TRAIN_STRATEGY = 'merge_train';

export interface WidgetStateInput {
  state: MergeRequestStateName;
  mergeOngoing: boolean;
  detailedMergeStatus: DetailedMergeStatus;
  commitCount: number;
  archived: boolean;
  sourceBranchExists: boolean;
  targetBranchExists: boolean;
  canMerge: boolean;
  diffHeadSha: string | null;
  /** The head SHA the page showed the user (null until known): a different head is a sha mismatch. */
  lastKnownSha: string | null;
  autoMergeEnabled: boolean;
  /** The request is a car on its merge train: auto-merge handed it over (GitLab's merge_train strategy). */
  onMergeTrain?: boolean;
  preferredAutoMergeStrategy: string | null;
  /** The server's merge error (an auto-merge whose merge failed keeps it). */
  mergeError?: string | null;
  /** A merge error from the merge call or the merging poll, held by the client. */
  clientMergeError: string | null;
}

/** The states in which the main area shows a panel of its own instead of the merge checks block. */
export const SPECIAL_STATES: ReadonlySet<WidgetStateName> = new Set([
  'checking',
  'preparing',
  'nothingToMerge',
  'archived',
  'missingBranch',
  'merged',
  'closed',
  'merging',
  'shaMismatch',
  'failedToMerge',
  'autoMergeFailed',
]);

/** The detailed statuses that mean "still being worked out" (UNCHECKED is shown as checking, as GitLab's API reports it). */
const CHECKING_STATUSES: ReadonlySet<DetailedMergeStatus> = new Set(['CHECKING', 'UNCHECKED']);

export function deriveWidgetState(input: WidgetStateInput): WidgetStateName | null {
  // A locked request is one in the middle of its merge (GitLab's `locked` lifecycle state).
  if (input.mergeOngoing || input.state === 'locked') return 'merging';
  if (input.state === 'opened') {
    if (input.clientMergeError !== null) return 'failedToMerge';
    return deriveOpenState(input);
  }
  return input.state === 'merged' ? 'merged' : 'closed';
}

function deriveOpenState(input: WidgetStateInput): WidgetStateName | null {
  if (input.detailedMergeStatus === 'PREPARING') return 'preparing';
  if (input.commitCount === 0) return 'nothingToMerge';
  if (input.archived) return 'archived';
  if (isBranchMissing(input) && input.detailedMergeStatus !== 'NOT_OPEN') return 'missingBranch';
  if (CHECKING_STATUSES.has(input.detailedMergeStatus)) return 'checking';
  if (input.canMerge && input.lastKnownSha !== null && input.diffHeadSha !== input.lastKnownSha) return 'shaMismatch';
  if (input.onMergeTrain) return 'autoMergeEnabled';
  if (input.autoMergeEnabled) return input.mergeError ? 'autoMergeFailed' : 'autoMergeEnabled';
  if (
    input.detailedMergeStatus === 'MERGEABLE' ||
    input.detailedMergeStatus === 'CI_STILL_RUNNING' ||
    (!input.autoMergeEnabled && input.preferredAutoMergeStrategy === MERGE_TRAIN_STRATEGY)
  ) {
    return 'readyToMerge';
  }
  return null;
}

function isBranchMissing(input: Pick<WidgetStateInput, 'sourceBranchExists' | 'targetBranchExists'>): boolean {
  return !input.sourceBranchExists || !input.targetBranchExists;
}

/** Which branch the missing-branch panel names: the source when it was removed, else the target. */
export function missingBranchType(input: Pick<WidgetStateInput, 'sourceBranchExists'>): 'source' | 'target' {
  return input.sourceBranchExists ? 'target' : 'source';
}
