// features/pipelines: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.

export const loadPipelinesPage = () => import('./PipelinesPage');
export const loadNewPipelinePage = () => import('./NewPipelinePage');
export const loadPipelinePage = () => import('./PipelinePage');
export const loadJobsPage = () => import('./JobsPage');
export const loadJobPage = () => import('./JobPage');
export const loadMergeRequestPipelines = () => import('./MergeRequestPipelines');
export const loadArtifactsBrowserPage = () => import('./ArtifactsBrowserPage');

// The merge widget's pipeline container shows the mini graph of the merge request's pipeline.
export { PipelineMiniGraph } from './PipelineMiniGraph';
export { pipelineJobsQuery } from './api';
export { StatusIcon as PipelineStatusIcon } from './StatusBadge';
// The environments pages show a deployment's status with the same CI badge.
export { fallbackStatus as ciStatusOf, StatusBadge as CiStatusBadge } from './StatusBadge';
export type { DetailedStatus as PipelineDetailedStatus, TestCase as PipelineTestCase } from './api';
