/**
 * The job a runner receives from `POST /api/v4/jobs/request` (GitLab's
 * Entities::Ci::JobRequest::Response), built from the stored job. Pure: the service gathers the
 * facts, this shapes them as gitlab-runner's `spec.Job` reads them.
 */
import { predefinedVariables } from '../pipelines/config/predefined-variables.js';
import type { JobRow } from '../pipelines/pipeline.js';
import type { JobContext } from './runner-jobs.repository.js';

/** One entry of the payload's `variables` (GitLab's runner variable hash). */
export interface RunnerVariable {
  key: string;
  value: string;
  public: boolean;
  masked: boolean;
  file?: boolean;
  raw?: boolean;
}

/** The project, group and instance variables of the job (CI/CD settings), already in precedence order. */
export interface StoredVariable {
  key: string;
  value: string;
  masked: boolean;
  file: boolean;
  raw: boolean;
}

export interface DependencyArtifacts {
  id: number;
  name: string;
  token: string;
  artifacts_file?: { filename: string; size: number };
}

export interface JobPayloadInput {
  job: JobRow;
  context: JobContext;
  token: string;
  serverUrl: string;
  /** the runner's maximum_timeout, which caps the job's own */
  runnerMaximumTimeout: number | null;
  protectedRef: boolean;
  user: { id: number; username: string; name: string; email: string } | null;
  pipelineVariables: { key: string; value: string; variable_type: 'env_var' | 'file' }[];
  storedVariables: StoredVariable[];
  dependencies: DependencyArtifacts[];
  now: Date;
}

/** GitLab's default job timeout (a project's build_timeout), one hour. */
export const DEFAULT_JOB_TIMEOUT_SECONDS = 3600;

/** GitLab's default `git_depth` for new projects (ci_default_git_depth). */
export const DEFAULT_GIT_DEPTH = 20;

/** Failure reasons the runner may report; others it maps to unknown_failure (GitLab's Ci::Build failure_reasons sent in `features`). */
export const RUNNER_FAILURE_REASONS = [
  'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'missing_dependency_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure',
  'data_integrity_failure', 'forward_deployment_failure', 'user_blocked', 'project_deleted', 'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found', 'invalid_bridge_trigger', 'bridge_pipeline_is_child_pipeline', 'downstream_pipeline_creation_failed',
  'secrets_provider_not_found', 'reached_max_descendant_pipelines_depth', 'ip_restriction_failure', 'reached_max_pipeline_hierarchy_size',
  'runner_configuration_error', 'runner_external_dependency_failure', 'image_pull_failure', 'job_canceled', 'runner_interrupted',
] as const;

/** The job's timeout: its own `timeout` (or the project default), capped by the runner's maximum, as GitLab's Ci::BuildMetadata#update_timeout_state. */
export function jobTimeout(jobTimeoutSeconds: number | undefined, runnerMaximum: number | null): number {
  const own = jobTimeoutSeconds ?? DEFAULT_JOB_TIMEOUT_SECONDS;
  return runnerMaximum !== null ? Math.min(own, runnerMaximum) : own;
}

/** `https://gitlab-ci-token:<token>@host/path.git`: the clone URL a job uses, authenticated by its job token. */
export function repositoryUrl(serverUrl: string, fullPath: string, token: string): string {
  const url = new URL(`${serverUrl.replace(/\/+$/, '')}/${fullPath}.git`);
  url.username = 'gitlab-ci-token';
  url.password = token;
  return url.toString();
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/**
 * A port of an image or service as GitLab's Gitlab::Ci::Build::Port sends it: `{number, protocol,
 * name}`, a bare number taking protocol `http` and name `default_port`; ports without a number are
 * dropped (GitLab keeps the valid ones). gitlab-runner decodes each into its `Port` struct.
 */
function portOf(value: unknown): { number: number; protocol: string; name: string } | null {
  if (typeof value === 'number' && Number.isInteger(value)) return { number: value, protocol: 'http', name: 'default_port' };
  if (!value || typeof value !== 'object') return null;
  const port = value as Record<string, unknown>;
  const number = Number(port.number);
  if (!Number.isInteger(number) || number <= 0) return null;
  return { number, protocol: typeof port.protocol === 'string' ? port.protocol : 'http', name: typeof port.name === 'string' ? port.name : 'default_port' };
}

/**
 * `image:` as the runner reads it (GitLab's Gitlab::Ci::Build::Image): `{name, entrypoint, ports,
 * pull_policy}`, or null. Every field has the type of gitlab-runner's `Image` struct, which
 * decodes the whole job with it: entrypoint a list of strings, ports `Port` objects, pull_policy
 * a list.
 */
function imageOf(value: unknown): Record<string, unknown> | null {
  if (typeof value === 'string') return { name: value, entrypoint: null, ports: [], pull_policy: null };
  if (!value || typeof value !== 'object') return null;
  const image = value as Record<string, unknown>;
  return {
    name: typeof image.name === 'string' ? image.name : null,
    entrypoint: image.entrypoint === undefined || image.entrypoint === null ? null : strings(image.entrypoint),
    ports: Array.isArray(image.ports) ? image.ports.map(portOf).filter((port) => port !== null) : [],
    pull_policy: image.pull_policy === undefined ? null : strings(image.pull_policy),
  };
}

/**
 * A service: the image's fields with `alias` (a string: gitlab-runner splits several aliases
 * itself), `command` (a list of strings) and `variables` as GitLab's build_variables makes them,
 * `[{key, value}]` with string values (the YAML's `variables:` is a hash; gitlab-runner's
 * JobVariables is a list and would refuse the whole job otherwise).
 */
function serviceOf(value: unknown): Record<string, unknown> {
  const base = imageOf(value) ?? { name: null };
  const service = typeof value === 'object' && value ? (value as Record<string, unknown>) : {};
  const variables = service.variables && typeof service.variables === 'object' && !Array.isArray(service.variables)
    ? Object.entries(service.variables as Record<string, unknown>).map(([key, variable]) => ({ key, value: variable === null || variable === undefined ? '' : String(variable) }))
    : null;
  return {
    ...base,
    alias: typeof service.alias === 'string' ? service.alias : null,
    command: service.command === undefined || service.command === null ? null : strings(service.command),
    variables,
  };
}

/** `artifacts:` becomes an `archive` entry, plus one entry per report (GitLab's Ci::Build#artifacts_options → runner artifacts). */
function artifactsOf(value: unknown): Record<string, unknown>[] {
  if (!value || typeof value !== 'object') return [];
  const artifacts = value as Record<string, unknown>;
  const out: Record<string, unknown>[] = [];
  const expireIn = artifacts.expire_in === undefined ? null : String(artifacts.expire_in);
  if (artifacts.paths !== undefined || artifacts.untracked !== undefined) {
    out.push({
      name: artifacts.name ?? null,
      untracked: artifacts.untracked ?? null,
      paths: strings(artifacts.paths),
      exclude: strings(artifacts.exclude),
      when: artifacts.when ?? 'on_success',
      expire_in: expireIn,
      artifact_type: 'archive',
      artifact_format: 'zip',
    });
  }
  const reports = artifacts.reports && typeof artifacts.reports === 'object' ? (artifacts.reports as Record<string, unknown>) : {};
  for (const [type, report] of Object.entries(reports)) {
    const paths = type === 'coverage_report' && report && typeof report === 'object' ? strings((report as Record<string, unknown>).path) : strings(report);
    out.push({
      name: type,
      untracked: null,
      paths,
      when: 'always',
      expire_in: expireIn,
      artifact_type: type === 'coverage_report' ? String((report as Record<string, unknown>).coverage_format ?? 'cobertura') : type,
      artifact_format: type === 'dotenv' ? 'gzip' : 'gzip',
    });
  }
  return out;
}

/** `cache:` (one or a list) as the runner reads it; the key defaults to `default`, as GitLab's. */
function cacheOf(value: unknown): Record<string, unknown>[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list
    .filter((entry): entry is Record<string, unknown> => !!entry && typeof entry === 'object')
    .map((cache) => ({
      key: typeof cache.key === 'string' ? cache.key : 'default',
      untracked: cache.untracked ?? false,
      paths: strings(cache.paths),
      policy: cache.policy ?? 'pull-push',
      when: cache.when ?? 'on_success',
      fallback_keys: strings(cache.fallback_keys),
    }));
}

/** The `variables` of the job: predefined ones first, then the others by GitLab's precedence (see below). */
export function runnerVariables(input: JobPayloadInput): RunnerVariable[] {
  const { job, context, token, serverUrl } = input;
  const base = serverUrl.replace(/\/+$/, '');
  const namespacePath = context.project_full_path.slice(0, context.project_full_path.lastIndexOf('/'));
  const mergeRequestVariables = context.merge_request_variables ?? [];
  // A merge request pipeline's CI_COMMIT_REF_NAME is its source branch (GitLab's source_ref).
  const sourceBranch = mergeRequestVariables.find((variable) => variable.key === 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME')?.value;
  const predefined: Record<string, string> = {
    ...predefinedVariables({
      serverUrl: base,
      project: {
        id: job.project_id,
        name: context.project_name,
        path: context.project_path,
        fullPath: context.project_full_path,
        namespacePath,
        defaultBranch: context.default_branch,
        visibility: context.project_visibility,
      },
      source: context.pipeline_source as Parameters<typeof predefinedVariables>[0]['source'],
      ref: sourceBranch ?? context.ref,
      tag: context.tag,
      sha: context.sha,
      beforeSha: context.before_sha,
    }),
    ...Object.fromEntries(mergeRequestVariables.map((variable) => [variable.key, variable.value])),
    CI_API_V4_URL: `${base}/api/v4`,
    CI_SERVER_HOST: new URL(base).hostname,
    CI_SERVER_PROTOCOL: new URL(base).protocol.replace(':', ''),
    CI_PIPELINE_ID: String(job.pipeline_id),
    CI_PIPELINE_IID: String(context.pipeline_iid),
    CI_PIPELINE_URL: `${base}/${context.project_full_path}/-/pipelines/${job.pipeline_id}`,
    CI_PIPELINE_CREATED_AT: context.pipeline_created_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    CI_JOB_ID: String(job.id),
    CI_JOB_NAME: job.name,
    CI_JOB_NAME_SLUG: job.name.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, ''),
    CI_JOB_STAGE: job.stage,
    CI_JOB_URL: `${base}/${context.project_full_path}/-/jobs/${job.id}`,
    CI_JOB_STARTED_AT: (job.started_at ?? input.now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    CI_JOB_TIMEOUT: String(jobTimeout(job.options.timeoutSeconds as number | undefined, input.runnerMaximumTimeout)),
    CI_COMMIT_REF_PROTECTED: String(input.protectedRef),
    CI_PROJECT_NAMESPACE_ID: String(context.namespace_id),
    CI_PROJECT_ROOT_NAMESPACE: namespacePath.split('/')[0] ?? '',
    CI_REGISTRY_USER: 'gitlab-ci-token',
    CI_DEPENDENCY_PROXY_USER: 'gitlab-ci-token',
    CI_CONFIG_PATH: '.gitlab-ci.yml',
  };
  if (input.user) {
    Object.assign(predefined, {
      GITLAB_USER_ID: String(input.user.id),
      GITLAB_USER_LOGIN: input.user.username,
      GITLAB_USER_NAME: input.user.name,
      GITLAB_USER_EMAIL: input.user.email,
    });
  }
  const out: RunnerVariable[] = [
    // The job token and the URL that embeds it are secrets: masked in logs, as GitLab does.
    { key: 'CI_JOB_TOKEN', value: token, public: false, masked: true },
    { key: 'CI_REPOSITORY_URL', value: repositoryUrl(base, context.project_full_path, token), public: false, masked: false },
    { key: 'CI_REGISTRY_PASSWORD', value: token, public: false, masked: true },
    { key: 'CI_DEPENDENCY_PROXY_PASSWORD', value: token, public: false, masked: true },
    ...Object.entries(predefined).map(([key, value]) => ({ key, value, public: true, masked: false })),
  ];
  // GitLab's precedence, lowest first (the runner keeps the last of a key): YAML variables, then the
  // stored instance/group/project ones, then the pipeline's and a played job's.
  for (const variable of job.yaml_variables) out.push({ key: variable.key, value: variable.value, public: true, masked: false });
  for (const variable of input.storedVariables) {
    out.push({ key: variable.key, value: variable.value, public: false, masked: variable.masked, ...(variable.file ? { file: true } : {}), ...(variable.raw ? { raw: true } : {}) });
  }
  for (const variable of input.pipelineVariables) out.push({ key: variable.key, value: variable.value, public: false, masked: false, ...(variable.variable_type === 'file' ? { file: true } : {}) });
  for (const variable of job.job_variables) out.push({ key: variable.key, value: variable.value, public: false, masked: false });
  return out;
}

/** The whole payload, field for field as GitLab's entity exposes it. */
export function jobPayload(input: JobPayloadInput): Record<string, unknown> {
  const { job, context, token } = input;
  const options = job.options;
  const timeout = jobTimeout(options.timeoutSeconds as number | undefined, input.runnerMaximumTimeout);
  const refType = context.tag ? 'tag' : 'branch';
  // A merge request pipeline's ref is a full ref (refs/merge-requests/:iid/head or /merge): fetched as it is.
  const refSpec = context.ref.startsWith('refs/') ? `+${context.ref}:${context.ref}` : context.tag ? `+refs/tags/${context.ref}:refs/tags/${context.ref}` : `+refs/heads/${context.ref}:refs/remotes/origin/${context.ref}`;
  const refspecs = [`+${context.sha}:refs/pipelines/${job.pipeline_id}`, refSpec];
  const script = [...strings(options.beforeScript), ...strings(options.script)];
  const steps: Record<string, unknown>[] = [{ name: 'script', script, timeout, when: 'on_success', allow_failure: false }];
  const afterScript = strings(options.afterScript);
  if (afterScript.length > 0) steps.push({ name: 'after_script', script: afterScript, timeout, when: 'always', allow_failure: true });
  const queued = job.queued_at ?? job.created_at;
  return {
    id: job.id,
    token,
    allow_git_fetch: true,
    job_info: {
      id: job.id,
      name: job.name,
      stage: job.stage,
      project_id: job.project_id,
      project_name: context.project_name,
      time_in_queue_seconds: Math.max(0, Math.round((input.now.getTime() - queued.getTime()) / 1000)),
      project_jobs_running_on_instance_runners_count: '+Inf',
      queue_size: 0,
      queue_depth: 0,
    },
    git_info: {
      repo_url: repositoryUrl(input.serverUrl, context.project_full_path, token),
      ref: context.ref,
      sha: context.sha,
      before_sha: context.before_sha,
      ref_type: refType,
      refspecs,
      depth: DEFAULT_GIT_DEPTH,
      repo_object_format: 'sha1',
      protected: input.protectedRef,
    },
    runner_info: { timeout, runner_session_url: null },
    variables: runnerVariables(input),
    steps,
    image: imageOf(options.image),
    services: Array.isArray(options.services) ? options.services.map(serviceOf) : [],
    artifacts: artifactsOf(options.artifacts),
    cache: cacheOf(options.cache),
    credentials: [],
    dependencies: input.dependencies.map((dependency) => ({
      id: dependency.id,
      name: dependency.name,
      token: dependency.token,
      ...(dependency.artifacts_file ? { artifacts_file: dependency.artifacts_file } : {}),
    })),
    features: { trace_sections: true, failure_reasons: [...RUNNER_FAILURE_REASONS] },
  };
}
