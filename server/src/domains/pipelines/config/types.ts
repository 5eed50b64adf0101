/** The compiler's input (a pipeline's context) and output (a plan, or GitLab's yaml_errors). */

export type PipelineSource =
  | 'push'
  | 'web'
  | 'api'
  | 'schedule'
  | 'merge_request_event'
  | 'trigger'
  | 'parent_pipeline'
  | 'pipeline'
  | 'chat'
  | 'external';

export interface PipelineContext {
  source: PipelineSource;
  /** Branch or tag name (without refs/heads/ or refs/tags/). */
  ref: string;
  tag: boolean;
  sha: string;
  /** Previous commit of a push; all zeros for a new branch. */
  beforeSha?: string;
  /** Paths changed by the push (or the merge request diff); undefined when unknown. */
  changedPaths?: readonly string[];
  /** Paths of every file in the repository at `sha` (for `rules:exists`). */
  existingPaths: readonly string[];
  /** Predefined `CI_*` variables and user-supplied (pipeline, project, group) variables. */
  variables: Readonly<Record<string, string>>;
  /** The project's full path, for `include: project` relative to this instance. */
  projectPath: string;
  /** Commit message, for `[ci skip]` / `[skip ci]`. */
  commitMessage?: string;
  /** Git push options (`-o ci.skip`, `-o ci.variable=…`). */
  pushOptions?: readonly string[];
}

/**
 * Reads a file of this repository (project undefined) or another project on this instance.
 * Answers null when the file, ref or project does not exist or the user may not read it.
 */
export type ReadConfigFile = (request: {
  project?: string;
  ref?: string;
  path: string;
}) => Promise<{ content: string } | { error: 'project_not_found' | 'ref_not_found' | 'file_not_found' }>;

/**
 * Reads a file out of the artifacts archive of a job of the parent pipeline, by job name (a child
 * pipeline's `include: artifact: … job: …`). Only given when creating a child pipeline.
 */
export type ReadArtifactFile = (request: { job: string; path: string }) => Promise<{ content: string } | { error: 'job_not_found' | 'file_not_found' | 'too_large' }>;

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';

export interface PlannedNeed {
  name: string;
  artifacts: boolean;
  optional: boolean;
}

export interface PlannedJob {
  name: string;
  stage: string;
  stageIdx: number;
  kind: 'build' | 'bridge';
  when: JobWhen;
  startIn?: string;
  allowFailure: boolean;
  allowFailureExitCodes?: number[];
  /** null: stage scheduling; an array: DAG (`needs`). */
  needs: PlannedNeed[] | null;
  crossNeeds?: Record<string, unknown>[];
  dependencies?: string[];
  /** The job's `variables:` merged over the global ones, with a rule's variables on top. */
  yamlVariables: { key: string; value: string }[];
  options: {
    script?: string[];
    beforeScript?: string[];
    afterScript?: string[];
    image?: Record<string, unknown>;
    services?: Record<string, unknown>[];
    artifacts?: Record<string, unknown>;
    cache?: unknown;
    environment?: Record<string, unknown>;
    retry?: { max: number; when: string[]; exitCodes?: number[] };
    timeoutSeconds?: number;
    parallel?: { number: number; total: number } | { matrix: Record<string, string> };
    trigger?: Record<string, unknown>;
    resourceGroup?: string;
    [key: string]: unknown;
  };
  tags: string[];
  coverageRegex?: string;
  interruptible?: boolean;
  resourceGroupKey?: string;
  environmentName?: string;
}

export interface PipelinePlan {
  stages: string[];
  jobs: PlannedJob[];
  /** Name from `workflow: name`, variables expanded. */
  name?: string;
  warnings: string[];
  /** The merged configuration (includes and extends resolved), as GitLab's `merged_yaml`. */
  mergedConfig: Record<string, unknown>;
  includes: { type: string; location: string; blob?: string; raw?: string; extra: Record<string, unknown>; contextProject: string }[];
}

export type CompileResult =
  | { status: 'created'; plan: PipelinePlan }
  | { status: 'error'; errors: string[]; warnings: string[] }
  /** workflow:rules or `[ci skip]` decided no pipeline is created. */
  | { status: 'skipped'; reason: 'filtered_by_workflow_rules' | 'ci_skip' | 'no_jobs'; message: string };
