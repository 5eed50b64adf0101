import type { Job, PipelineBasic } from './api';

/** A stage dropdown shows a search box when the stage has more jobs than this (GitLab's threshold). */
export const STAGE_SEARCH_THRESHOLD = 12;
/** Downstream pipelines shown in the mini graph; the rest are a "+N" counter. */
export const DOWNSTREAM_SHOWN = 3;
/** The footer of a merge train pipeline's stage dropdown (its jobs cannot be retried one by one). */
export const MERGE_TRAIN_FOOTER = 'Merge train pipeline jobs can not be retried';
export const STAGE_JOBS_ERROR = 'There was a problem fetching the pipeline stage jobs.';
export const DOWNSTREAM_JOBS_ERROR = 'There was a problem fetching the downstream pipeline jobs.';

/**
 * The jobs a stage dropdown lists: failed jobs first, then the rest, each group in the pipeline's
 * order; narrowed to names containing `search` (case-insensitive) when one is typed.
 */
export function stageDropdownJobs<J extends Pick<Job, 'name' | 'status'>>(jobs: readonly J[], search = ''): J[] {
  const needle = search.trim().toLowerCase();
  const matching = needle ? jobs.filter((job) => job.name.toLowerCase().includes(needle)) : [...jobs];
  return [...matching.filter((job) => job.status === 'failed'), ...matching.filter((job) => job.status !== 'failed')];
}

/** The downstream pipelines a pipeline's trigger jobs created: the first few shown, the count of the others. */
export function downstreamShown(bridges: readonly Pick<Job, 'downstream_pipeline'>[]): { shown: PipelineBasic[]; more: number } {
  const all = bridges.flatMap((bridge) => (bridge.downstream_pipeline ? [bridge.downstream_pipeline] : []));
  return { shown: all.slice(0, DOWNSTREAM_SHOWN), more: Math.max(0, all.length - DOWNSTREAM_SHOWN) };
}

/** Trigger jobs (bridges) have no `detailed_status` and a downstream pipeline slot; every other job is a build. */
export const isBridge = (job: Pick<Job, 'detailed_status' | 'downstream_pipeline'>) => job.downstream_pipeline !== undefined && job.detailed_status === undefined;
