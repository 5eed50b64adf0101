/** Stored pipelines and jobs, as the repository returns them. */
import type { JobWhen, PipelineSource } from './config/types.js';
import type { Queryable } from '../../platform/db/database.js';
import type { Status } from './engine/status.js';

export interface PipelineRow {
  id: number;
  project_id: number;
  iid: number;
  sha: string;
  before_sha: string;
  ref: string;
  tag: boolean;
  source: PipelineSource;
  status: Status;
  user_id: number | null;
  name: string | null;
  yaml_errors: string | null;
  failure_reason: string | null;
  committed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration: number | null;
  queued_duration: number | null;
  coverage: number | null;
  /** a merge request pipeline's merge request (source merge_request_event) */
  merge_request_id: number | null;
  /** a merged results pipeline: the source head and the target tip its trial merge commit joined */
  source_sha: string | null;
  target_sha: string | null;
  /** the CI_MERGE_REQUEST_* variables it was created with (empty for other pipelines) */
  merge_request_variables: { key: string; value: string }[];
}

export interface StageRow {
  id: number;
  pipeline_id: number;
  name: string;
  position: number;
  status: Status;
}

export interface JobRow {
  id: number;
  project_id: number;
  pipeline_id: number;
  stage_id: number;
  type: 'build' | 'bridge';
  name: string;
  stage: string;
  stage_idx: number;
  status: Status;
  when: JobWhen;
  start_in: string | null;
  allow_failure: boolean;
  allow_failure_exit_codes: number[] | null;
  scheduling_type: 'stage' | 'dag';
  options: Record<string, unknown> & { retry?: { max: number; when: string[]; exitCodes?: number[] } };
  yaml_variables: { key: string; value: string }[];
  job_variables: { key: string; value: string }[];
  tags: string[];
  coverage_regex: string | null;
  coverage: number | null;
  interruptible: boolean | null;
  resource_group_key: string | null;
  environment: string | null;
  retried: boolean;
  user_id: number | null;
  runner_id: number | null;
  token_hash: string | null;
  exit_code: number | null;
  failure_reason: string | null;
  scheduled_at: Date | null;
  created_at: Date;
  updated_at: Date;
  queued_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  erased_at: Date | null;
  /** names of the needed jobs (DAG), loaded with the job */
  needs: { name: string; artifacts: boolean; optional: boolean }[];
}

export interface PipelineVariable {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
}

/**
 * Told of jobs being created and moved, in the transaction that does it, so that what follows a
 * job (an environment's deployment) changes with it. Other domains register one (index.ts
 * `listenToJobs`); the engine knows nothing of them.
 */
export interface JobListener {
  /** any new pipeline, jobs or not (a skipped or failed one has none), in its creation's transaction */
  pipelineCreated?(pipeline: PipelineRow, tx: Queryable): Promise<void>;
  /** the jobs of a new pipeline, before its first processing */
  jobsCreated?(pipeline: PipelineRow, jobs: readonly JobRow[], tx: Queryable): Promise<void>;
  /** a job whose status changed (the transition's compare-and-swap won) */
  jobMoved?(job: JobRow, tx: Queryable): Promise<void>;
}
