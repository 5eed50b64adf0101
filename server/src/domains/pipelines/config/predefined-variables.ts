/**
 * The predefined `CI_*` variables a pipeline's configuration can read at creation time (in
 * `rules:if`, `workflow:rules`, include locations), as GitLab sets them for the pipeline's
 * source, ref and commit. Job-level ones (CI_JOB_ID, CI_JOB_TOKEN …) belong to the runner step.
 */
import type { PipelineSource } from './types.js';

export interface PredefinedVariablesInput {
  serverUrl: string;
  project: { id: number; name: string; path: string; fullPath: string; namespacePath: string; defaultBranch: string; visibility: string };
  source: PipelineSource;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha?: string;
  commitMessage?: string;
}

/** GitLab's CI_COMMIT_REF_SLUG: lower case, non-alphanumerics to `-`, at most 63, no `-` at the ends. */
export function refSlug(ref: string): string {
  return ref.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
}

export function predefinedVariables(input: PredefinedVariablesInput): Record<string, string> {
  const { project } = input;
  const message = input.commitMessage ?? '';
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_SERVER_URL: input.serverUrl,
    CI_PIPELINE_SOURCE: input.source,
    CI_PROJECT_ID: String(project.id),
    CI_PROJECT_NAME: project.path,
    CI_PROJECT_TITLE: project.name,
    CI_PROJECT_PATH: project.fullPath,
    CI_PROJECT_PATH_SLUG: refSlug(project.fullPath),
    CI_PROJECT_NAMESPACE: project.namespacePath,
    CI_PROJECT_URL: `${input.serverUrl}/${project.fullPath}`,
    CI_PROJECT_VISIBILITY: project.visibility,
    CI_DEFAULT_BRANCH: project.defaultBranch,
    CI_COMMIT_SHA: input.sha,
    CI_COMMIT_SHORT_SHA: input.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: input.beforeSha ?? '0'.repeat(40),
    CI_COMMIT_REF_NAME: input.ref,
    CI_COMMIT_REF_SLUG: refSlug(input.ref),
    CI_COMMIT_MESSAGE: message,
    CI_COMMIT_TITLE: message.split('\n')[0] ?? '',
    CI_COMMIT_DESCRIPTION: message.includes('\n') ? message.slice(message.indexOf('\n') + 1) : '',
  };
  if (input.tag) vars.CI_COMMIT_TAG = input.ref;
  else if (input.source !== 'merge_request_event') vars.CI_COMMIT_BRANCH = input.ref;
  return vars;
}
