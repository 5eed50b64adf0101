import type { WidgetHeadPipeline } from '@tributary/contracts/merge-widget';
import { MSG } from './messages';
import type { ReadyStatus } from './merge-button';

/**
 * The merge widget's pipeline rules, as pure functions: what the pipeline container shows,
 * when the merge asks for confirmation first, how the Merge button looks, and when the
 * suggestion to add a pipeline shows. GitLab's mr_widget_pipeline.vue, ready_to_merge.vue and
 * mr_widget_options.vue.
 */

/** GitLab's docs the container links to. */
export const PIPELINE_DOCS = {
  mrTroubleshooting: 'https://docs.gitlab.com/ee/ci/troubleshooting.html#merge-request-pipeline-widget',
  ciTroubleshooting: 'https://docs.gitlab.com/ee/ci/troubleshooting.html',
  runPipelinePermissions: 'https://docs.gitlab.com/ee/ci/pipelines/merge_request_pipelines.html#run-pipelines-in-the-parent-project',
  mergeRequestPipelines: 'https://docs.gitlab.com/ee/ci/pipelines/merge_request_pipelines.html',
  quickStart: 'https://docs.gitlab.com/ee/ci/quick_start/',
} as const;

export type PipelineContainerState =
  /** a pipeline without a status: 'Could not retrieve the pipeline status.' */
  | 'ciError'
  /** the target branch changed: 'You should run a new pipeline…' with 'Run pipeline' */
  | 'retargeted'
  /** the request has CI but no pipeline for its head yet: 'Checking pipeline status.' */
  | 'checking'
  | 'pipeline'
  /** nothing to show (no CI) */
  | null;

/** GitLab's order: the status error, then the retarget message, then "checking", then the pipeline. */
export function pipelineContainerState(input: { hasCi: boolean; pipeline: Pick<WidgetHeadPipeline, 'status'> | null; retargeted: boolean }): PipelineContainerState {
  if (input.pipeline && !input.pipeline.status) return 'ciError';
  if (input.retargeted) return 'retargeted';
  if (!input.pipeline) return input.hasCi ? 'checking' : null;
  return 'pipeline';
}

/** The help popover of a pipeline's event type ('Merged results pipeline', 'Merge request pipeline'). */
export function eventTypeHelp(eventTypeName: string): { title: string; content: string } | null {
  switch (eventTypeName) {
    case 'Merged results pipeline':
      return { title: MSG.mergedResultsHelpTitle, content: MSG.mergedResultsHelp };
    case 'Merge request pipeline':
      return { title: MSG.mergeRequestHelpTitle, content: MSG.mergeRequestHelp };
    case 'Merge train pipeline':
      return { title: MSG.mergeTrainHelpTitle, content: MSG.mergeTrainHelp };
    default:
      return null;
  }
}

const FAILED = new Set(['FAILED', 'CANCELED']);

/** GitLab's isPipelineFailed: the pipeline failed or was canceled. */
export function isPipelineFailed(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && FAILED.has(status);
}

/** Pipeline flags: passing (success, or success with warnings), failed (failed or canceled), skipped. */
export function pipelineFlags(pipeline: Pick<WidgetHeadPipeline, 'status' | 'detailedStatus'> | null): { passing: boolean; failed: boolean; skipped: boolean } {
  const status = pipeline?.status ?? null;
  return { passing: status === 'SUCCESS', failed: isPipelineFailed(status), skipped: status === 'SKIPPED' };
}

/** A pipeline is blocked when pipeline success is required and it waits on a manual job (its group is manual). */
export function isPipelineBlocked(input: { onlyAllowMergeIfPipelineSucceeds: boolean; pipeline: Pick<WidgetHeadPipeline, 'detailedStatus'> | null }): boolean {
  return input.onlyAllowMergeIfPipelineSucceeds && input.pipeline?.detailedStatus.group === 'manual';
}

/**
 * The pipeline-failed confirmation ('Merge unverified changes?') opens for a normal merge when
 * the ready status is failed-like and the pipeline failed, or when the request was retargeted;
 * never once the user confirmed.
 */
export function needsUnverifiedConfirmation(input: { status: ReadyStatus; pipelineFailed: boolean; retargeted: boolean; confirmed: boolean }): boolean {
  if (input.confirmed) return false;
  return (input.status === 'failed' && input.pipelineFailed) || input.retargeted;
}

/** The Merge button is a danger button when the status is failed-like or the pipeline failed (GitLab's mergeButtonVariant). */
export function mergeButtonVariant(input: { status: ReadyStatus; pipelineFailed: boolean }): 'danger' | 'primary' {
  return input.status === 'failed' || input.pipelineFailed ? 'danger' : 'primary';
}

/**
 * The suggestion to add a pipeline: when the project has no CI, the user may push to the
 * source branch (GitLab's "add CI path" exists only then) and has not dismissed it.
 */
export function showSuggestPipeline(input: { hasCi: boolean; canPushToSourceBranch: boolean; sourceBranchExists: boolean; open: boolean; dismissed: boolean | null }): boolean {
  return !input.hasCi && input.open && input.canPushToSourceBranch && input.sourceBranchExists && input.dismissed === false;
}

/** The callout GitLab records when the suggestion is dismissed. */
export const SUGGEST_PIPELINE_CALLOUT = 'suggest_pipeline';

/** The numeric id of a global id (`gid://gitlab/Ci::Pipeline/12` → 12). */
export function idOf(globalId: string): number {
  return Number(globalId.slice(globalId.lastIndexOf('/') + 1));
}

/** GitLab's commit short id: the first 8 characters of the sha. */
export const shortSha = (sha: string) => sha.slice(0, 8);

/**
 * The pipeline keeps the Merge button disabled: it is blocked on a manual job, or it must
 * succeed and is still running (without auto-merge there is nothing to schedule, and the
 * server would refuse the merge).
 */
export function pipelinePreventsMerge(input: { onlyAllowMergeIfPipelineSucceeds: boolean; pipeline: Pick<WidgetHeadPipeline, 'detailedStatus'> | null; detailedMergeStatus: string }): boolean {
  return isPipelineBlocked(input) || input.detailedMergeStatus === 'CI_STILL_RUNNING';
}
