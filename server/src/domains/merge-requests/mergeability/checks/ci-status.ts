import type { MergeabilityCheckStatus } from '@tributary/contracts';
import type { HeadPipelineStatus, MergeabilityFacts } from '../facts.js';
import type { CheckModule } from './check.js';

/** GitLab's `active?` pipelines: work is queued or under way. */
const ACTIVE: ReadonlySet<HeadPipelineStatus> = new Set(['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling']);
/** GitLab's `complete?` pipelines: nothing more will happen without someone acting. */
const COMPLETE: ReadonlySet<HeadPipelineStatus> = new Set(['success', 'failed', 'canceled', 'skipped']);

/**
 * GitLab's mergeable_ci_state?: the merge request's pipeline for its diff head succeeded (a
 * skipped one counts when the project says so); without a pipeline it cannot have. Pure.
 */
export function pipelinePasses(facts: Pick<MergeabilityFacts, 'headPipelineStatus' | 'skippedPipelineSucceeds'>): boolean {
  if (facts.headPipelineStatus === null) return false;
  return facts.headPipelineStatus === 'success' || (facts.skippedPipelineSucceeds && facts.headPipelineStatus === 'skipped');
}

/**
 * GitLab's diff_head_pipeline_considered_in_progress? when "Pipelines must succeed" is on: the
 * pipeline is not complete (running, pending, created, or waiting on a manual or delayed job).
 */
export function pipelineInProgress(status: HeadPipelineStatus | null): boolean {
  return status !== null && !COMPLETE.has(status);
}

/**
 * "Pipelines must succeed" (GitLab's CheckCiStatusService, identifier ci_must_pass): INACTIVE
 * unless the project asks for it; CHECKING while the pipeline is active; FAILED when there is
 * no pipeline for the head or it did not succeed.
 */
export const ciMustPassCheck: CheckModule = {
  identifier: 'CI_MUST_PASS',
  run(facts): MergeabilityCheckStatus {
    if (!facts.pipelineMustSucceed) return 'INACTIVE';
    if (pipelinePasses(facts)) return 'SUCCESS';
    if (facts.headPipelineStatus !== null && ACTIVE.has(facts.headPipelineStatus)) return 'CHECKING';
    return 'FAILED';
  },
};

/**
 * The pipeline that must succeed has not finished (GitLab's DetailedMergeStatusService answers
 * ci_still_running rather than ci_must_pass then). It comes just before CI_MUST_PASS in the
 * list, so an unfinished pipeline names the status CI_STILL_RUNNING, a finished unsuccessful one
 * CI_MUST_PASS.
 */
export const ciStillRunningCheck: CheckModule = {
  identifier: 'CI_STILL_RUNNING',
  run(facts): MergeabilityCheckStatus {
    if (!facts.pipelineMustSucceed) return 'INACTIVE';
    return pipelineInProgress(facts.headPipelineStatus) ? 'FAILED' : 'SUCCESS';
  },
};
