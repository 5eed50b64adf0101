/**
 * The job payload of `POST /api/v4/jobs/request` as gitlab-runner reads it (its `spec.Job` JSON
 * fields). Only what this runner uses is typed; GitLab sends more.
 */
export interface JobVariable {
  key: string;
  value: string;
  public?: boolean;
  masked?: boolean;
  file?: boolean;
  raw?: boolean;
}

export type When = 'on_success' | 'on_failure' | 'always';

export interface JobStep {
  name: string; // script | after_script | release | run
  script: string[];
  timeout?: number;
  when?: When;
  allow_failure?: boolean;
}

export interface JobArtifact {
  name?: string;
  untracked?: boolean;
  paths?: string[];
  exclude?: string[];
  when?: When;
  expire_in?: string;
  artifact_type?: string;
  artifact_format?: string;
}

export interface JobCache {
  key?: string;
  paths?: string[];
  policy?: 'pull' | 'push' | 'pull-push';
  untracked?: boolean;
  when?: When;
}

export interface JobDependency {
  id: number;
  name: string;
  token: string;
  artifacts_file?: { filename?: string; size?: number } | null;
}

export interface JobPayload {
  id: number;
  token: string;
  allow_git_fetch?: boolean;
  job_info?: { id?: number; name?: string; stage?: string; project_id?: number; project_name?: string; project_full_path?: string; pipeline_id?: number };
  git_info: { repo_url: string; ref: string; sha: string; before_sha?: string; ref_type?: string; refspecs?: string[]; depth?: number };
  runner_info?: { timeout?: number };
  variables?: JobVariable[];
  steps?: JobStep[];
  image?: { name?: string; entrypoint?: string[] } | null;
  services?: { name?: string; alias?: string | null; entrypoint?: string[] | null; command?: string[] | null; variables?: { key: string; value: string }[] | null }[] | null;
  artifacts?: JobArtifact[] | null;
  cache?: JobCache[] | null;
  dependencies?: JobDependency[] | null;
}

/** The failure reasons this runner reports (GitLab's names). */
export type FailureReason = 'script_failure' | 'job_execution_timeout' | 'runner_system_failure';

export interface JobOutcome {
  state: 'success' | 'failed' | 'canceled';
  failureReason?: FailureReason;
  exitCode?: number;
}

/** Whether something marked `when` runs after a job that has (not) failed so far. */
export function runsWhen(when: When | undefined, failed: boolean, fallback: When = 'on_success'): boolean {
  const value = when ?? fallback;
  return value === 'always' || (value === 'on_success' ? !failed : failed);
}
