/**
 * When an auto-merge stops (abortReason) and when it merges (mergeDecision). Pure: the
 * evaluation gathers the facts after every change that could matter and calls these.
 *
 * Abort reasons are the ends of GitLab's system note "aborted the automatic merge because …":
 * 'merge request was closed', 'target branch was changed' and 'source branch was updated' are
 * GitLab's words; a failed or canceled pipeline and a merge user who lost the right to merge
 * are Tributary's (GitLab leaves those auto-merges hanging).
 */
import type { HeadPipelineStatus } from '../merge-requests/mergeability/index.js';
import type { MergeRequestState } from '../merge-requests/merge-request.js';
import { MERGE_TRAIN, type AutoMergeStrategy } from './strategy.js';

export const ABORT_REASONS = {
  closed: 'merge request was closed',
  targetChanged: 'target branch was changed',
  sourceUpdated: 'source branch was updated',
  pipelineFailed: 'the pipeline failed',
  pipelineCanceled: 'the pipeline was canceled',
  cannotMerge: 'the merge user can no longer merge',
} as const;

export type AbortReason = (typeof ABORT_REASONS)[keyof typeof ABORT_REASONS];

export interface AbortFacts {
  state: MergeRequestState;
  /** the target branch now, and when auto-merge was set */
  targetBranch: string;
  setTargetBranch: string;
  /** the source head now, and the one auto-merge was set for (moved along by the setter's own pushes) */
  headSha: string | null;
  setSha: string;
  /** the user who set it may still merge into the target branch (and is active) */
  setterCanMerge: boolean;
  /** the pipeline of the current head; null when there is none */
  pipelineStatus: HeadPipelineStatus | null;
  /**
   * The strategy is merge_train ('Start merge train'): the car runs its own train pipeline, so
   * the head's pipeline neither stops nor delays it (GitLab adds the car at once, a failed
   * pipeline confirmed in the page's dialog).
   */
  startsTrainNow?: boolean;
}

/** Why the auto-merge can no longer happen, or null while it still can. First match wins. */
export function abortReason(facts: AbortFacts): AbortReason | null {
  if (facts.state === 'closed') return ABORT_REASONS.closed;
  if (facts.state !== 'opened' && facts.state !== 'locked') return null; // merged: nothing to abort
  if (facts.targetBranch !== facts.setTargetBranch) return ABORT_REASONS.targetChanged;
  if (facts.headSha !== facts.setSha) return ABORT_REASONS.sourceUpdated;
  if (!facts.setterCanMerge) return ABORT_REASONS.cannotMerge;
  if (facts.startsTrainNow) return null;
  if (facts.pipelineStatus === 'failed') return ABORT_REASONS.pipelineFailed;
  if (facts.pipelineStatus === 'canceled') return ABORT_REASONS.pipelineCanceled;
  return null;
}

export interface MergeFacts {
  /** the request's detailed merge status with every check */
  detailedMergeStatus: string;
  /** the request has had pipelines (GitLab's has_ci?): then its head's pipeline must succeed, and one not created yet is waited for */
  hasCi: boolean;
  pipelineStatus: HeadPipelineStatus | null;
  /** "Skipped pipelines are considered successful" */
  skippedPipelineSucceeds: boolean;
  /** merge_train: only the merge checks count, not the head's pipeline (see AbortFacts) */
  startsTrainNow?: boolean;
}

/**
 * GitLab's MergeWhenChecksPassService#process: with CI (the request has had pipelines), wait
 * until the head's pipeline has succeeded, whatever the project's "pipelines must succeed"
 * says (a push's pipeline not created yet is waited for too); and wait while any check fails;
 * merge otherwise.
 */
export function mergeDecision(facts: MergeFacts): 'merge' | 'wait' {
  if (facts.startsTrainNow) return facts.detailedMergeStatus === 'MERGEABLE' ? 'merge' : 'wait';
  if (facts.hasCi && facts.pipelineStatus === null) return 'wait';
  if (facts.pipelineStatus !== null) {
    const passed = facts.pipelineStatus === 'success' || (facts.pipelineStatus === 'skipped' && facts.skippedPipelineSucceeds);
    if (!passed) return 'wait';
  }
  return facts.detailedMergeStatus === 'MERGEABLE' ? 'merge' : 'wait';
}

/**
 * A push to the source branch: the setter's own push moves the auto-merge along to the new
 * head; anyone else's leaves it set for the old head, so the next evaluation aborts it.
 */
export function followsPush(pusherId: number | null | undefined, setterId: number): boolean {
  return pusherId !== null && pusherId !== undefined && pusherId === setterId;
}

/**
 * Is auto-merge set on the request (GitLab's merge_when_pipeline_succeeds / auto_merge_enabled
 * in the entities)? Setting it, or the request boarding a merge train (GitLab's merge_train
 * strategy stays enabled while the request is a car), names the merge user of an open request,
 * and only those do; cancelling or aborting it, or the car leaving its train, clears the merge
 * user again.
 */
export function isAutoMergeSet(mergeRequest: { state: MergeRequestState; merge_user_id: number | null }): boolean {
  return (mergeRequest.state === 'opened' || mergeRequest.state === 'locked') && mergeRequest.merge_user_id !== null;
}

/**
 * The auto-merge strategy a request shows (GitLab's auto_merge_strategy): a car on a merge train
 * is merged by its train, `merge_train`, however it boarded (the API, the page, or a "when checks
 * pass" strategy whose checks passed); otherwise the strategy of its setting, if any.
 */
export function shownAutoMergeStrategy(setting: { strategy: AutoMergeStrategy } | null | undefined, onTrain: boolean): AutoMergeStrategy | null {
  if (onTrain) return MERGE_TRAIN;
  return setting?.strategy ?? null;
}
