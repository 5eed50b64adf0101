/** The pipeline configuration compiler: `.gitlab-ci.yml` + a pipeline's context → a plan or yaml_errors. */
export { compilePipelineConfig, NO_JOBS_MESSAGE } from './compile.js';
export { FILTERED_BY_WORKFLOW } from './workflow.js';
export * from './limits.js';
export type * from './types.js';
