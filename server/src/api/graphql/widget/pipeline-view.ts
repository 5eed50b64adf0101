/**
 * The merge request's pipeline as the merge widget shows it, for the REST widget payload and
 * GraphQL alike (GitLab's MergeRequestPollWidgetEntity `pipeline`, `ci_status`, `has_ci`, and
 * the GraphQL Pipeline type). Pure.
 */
import { t } from '@tributary/contracts';
import { pipelineDetailedStatus } from '../../../domains/pipelines/engine/detailed-status.js';
import type { PipelineRow } from '../../../domains/pipelines/pipeline.js';
import type { WidgetPipeline } from './widget-model.js';

/** GitLab's statuses of an active pipeline (Ci::HasStatus::ACTIVE_STATUSES). */
const ACTIVE = new Set(['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling']);

/** GitLab's merge_request_event_type: merged_result, merge_train or detached; null for a branch pipeline. */
export function mergeRequestEventType(pipeline: Pick<PipelineRow, 'source' | 'merge_request_id' | 'ref'>): 'detached' | 'merged_result' | 'merge_train' | null {
  if (pipeline.source !== 'merge_request_event' || pipeline.merge_request_id === null) return null;
  if (/^refs\/merge-requests\/\d+\/train$/.test(pipeline.ref)) return 'merge_train';
  return /^refs\/merge-requests\/\d+\/merge$/.test(pipeline.ref) ? 'merged_result' : 'detached';
}

/** GitLab's event_type_name: the explanation title of a merge request pipeline; 'Pipeline' otherwise. */
export function pipelineEventTypeName(pipeline: Pick<PipelineRow, 'source' | 'merge_request_id' | 'ref'>): string {
  switch (mergeRequestEventType(pipeline)) {
    case 'merge_train':
      return t('Merge train pipeline');
    case 'merged_result':
      return t('Merged results pipeline');
    case 'detached':
      return t('Merge request pipeline');
    default:
      return t('Pipeline');
  }
}

/** GitLab's ci_status: the status, `success-with-warnings` for a success with allowed failures. */
export const ciStatus = (head: Pick<WidgetPipeline, 'pipeline' | 'warnings'>): string =>
  head.pipeline.status === 'success' && head.warnings ? 'success-with-warnings' : head.pipeline.status;

export const pipelinePath = (head: Pick<WidgetPipeline, 'pipeline' | 'project'>) => `/${head.project.full_path}/-/pipelines/${head.pipeline.id}`;

/**
 * The warnings the widget shows beside the pipeline: after a retarget with merged results
 * pipelines on, the pipeline ran against the old target (GitLab's message); with merged results
 * pipelines on and a fork as the source, the pipeline runs in the fork, not on the trial merge.
 */
export function pipelineWarnings(input: { mergePipelinesEnabled: boolean; retargeted: boolean; fromFork: boolean }): { retargeted: string | null; forkMergePipelines: boolean } {
  return {
    retargeted: input.mergePipelinesEnabled && input.retargeted ? t('You should run a new pipeline, because the target branch has changed for this merge request.') : null,
    forkMergePipelines: input.mergePipelinesEnabled && input.fromFork,
  };
}

/** GitLab's widget `pipeline` (MergeRequestPollWidgetEntity → PipelineDetailsEntity, the parts the widget reads). */
export function widgetPipelineEntity(head: WidgetPipeline, urls: { web(path: string): string }) {
  const { pipeline, project, stages } = head;
  const path = pipelinePath(head);
  const status = pipelineDetailedStatus({ status: pipeline.status, warnings: head.warnings }, path);
  const eventType = mergeRequestEventType(pipeline);
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    path,
    web_url: urls.web(path.slice(1)),
    project_path: `/${project.full_path}`,
    active: ACTIVE.has(pipeline.status),
    coverage: pipeline.coverage === null ? null : pipeline.coverage.toFixed(2),
    source: pipeline.source,
    created_at: pipeline.created_at.toISOString(),
    updated_at: pipeline.updated_at.toISOString(),
    merge_request_event_type: eventType,
    flags: {
      merge_request_pipeline: eventType !== null,
      merged_result_pipeline: eventType === 'merged_result',
      merge_train_pipeline: eventType === 'merge_train',
      detached_merge_request_pipeline: eventType === 'detached',
    },
    details: {
      status,
      event_type_name: pipelineEventTypeName(pipeline),
      stages: stages.map((stage) => ({
        name: stage.name,
        title: `${stage.name}: ${stage.status}`,
        status: pipelineDetailedStatus({ status: stage.status, warnings: false }, `${path}#${stage.name}`),
        path: `${path}#${stage.name}`,
      })),
      finished_at: pipeline.finished_at?.toISOString() ?? null,
      duration: pipeline.duration,
    },
    ref: {
      name: pipeline.ref,
      // a merge request pipeline's ref is refs/merge-requests/:iid/…, not a branch
      branch: eventType === null && !pipeline.tag,
      tag: pipeline.tag,
      merge_request: eventType !== null,
    },
    commit: { id: pipeline.sha, short_id: pipeline.sha.slice(0, 8), commit_path: `/${project.full_path}/-/commit/${pipeline.sha}` },
  };
}
