/**
 * GitLab's CI Lint (`POST /projects/:id/ci/lint`): the configuration compiled against the
 * project's repository at the default branch (or `ref`), answered as GitLab's
 * Entities::Ci::Lint::Result. Caller must be able to create pipelines (Developer or above on a
 * project that is not archived: GitLab's `create_pipeline`, our `push_code`); files of other
 * projects are included only when the caller may read their code.
 */
import { stringify } from 'yaml';
import type { Actor } from '../../auth/actor.js';
import { resolveCommit } from '../../git/refs.js';
import { readTree } from '../../git/tree.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import { compilePipelineConfig } from './config/compile.js';
import { predefinedVariables } from './config/predefined-variables.js';
import type { PlannedJob } from './config/types.js';
import { configFileReader } from './config-file-reader.js';

export interface LintInput {
  content: string;
  dryRun: boolean;
  includeJobs: boolean;
  ref?: string;
}

export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  merged_yaml: string | null;
  includes: unknown[] | null;
  jobs?: unknown[];
}

export function createCiLintService(deps: { access: Pick<RepositoryAccess, 'open'>; serverUrl: string }) {
  return {
    async lint(actor: Actor, idOrPath: string | number, input: LintInput): Promise<LintResult> {
      const { project, repoPath } = await deps.access.open(actor, idOrPath, 'push_code');
      const ref = input.ref || project.default_branch;
      const commit = (await resolveCommit(repoPath, ref)) ?? '';
      const entries = commit ? ((await readTree(repoPath, commit, '', { recursive: true })) ?? []) : [];
      const readFile = configFileReader(deps.access, actor, project, repoPath, commit);
      const namespacePath = project.full_path.slice(0, project.full_path.lastIndexOf('/'));
      const variables = predefinedVariables({
        serverUrl: deps.serverUrl,
        project: { id: project.id, name: project.name, path: project.path, fullPath: project.full_path, namespacePath, defaultBranch: project.default_branch, visibility: project.visibility },
        source: 'push',
        ref,
        tag: false,
        sha: commit || '0'.repeat(40),
      });
      const result = await compilePipelineConfig(
        input.content,
        {
          source: 'push',
          ref,
          tag: false,
          sha: commit,
          existingPaths: entries.filter((entry) => entry.type === 'blob').map((entry) => entry.path),
          variables,
          projectPath: project.full_path,
        },
        readFile,
      );
      if (result.status === 'error') {
        return { valid: false, errors: result.errors, warnings: result.warnings, merged_yaml: null, includes: null, ...(input.includeJobs ? { jobs: [] } : {}) };
      }
      if (result.status === 'skipped') {
        // A static check (GitLab's default) does not evaluate workflow:rules; a dry run reports the filter.
        return {
          valid: !input.dryRun,
          errors: input.dryRun ? [result.message] : [],
          warnings: [],
          merged_yaml: null,
          includes: [],
          ...(input.includeJobs ? { jobs: [] } : {}),
        };
      }
      const { plan } = result;
      return {
        valid: true,
        errors: [],
        warnings: plan.warnings,
        // Ruby's Hash#to_yaml, which GitLab answers, opens with a document marker.
        merged_yaml: `---\n${stringify(plan.mergedConfig)}`,
        includes: plan.includes.map((include) => ({
          type: include.type,
          location: include.location,
          blob: include.blob ?? null,
          raw: include.raw ?? null,
          extra: include.extra,
          context_project: include.contextProject,
          context_sha: commit,
        })),
        ...(input.includeJobs ? { jobs: plan.jobs.map(lintJob) } : {}),
      };
    },
  };
}

/** A job as GitLab's lint lists it. */
function lintJob(job: PlannedJob) {
  return {
    name: job.name,
    stage: job.stage,
    before_script: job.options.beforeScript ?? [],
    script: job.options.script ?? [],
    after_script: job.options.afterScript ?? [],
    tag_list: job.tags,
    environment: job.environmentName ?? null,
    when: job.when,
    allow_failure: job.allowFailure,
    needs: job.needs?.map((need) => ({ name: need.name, artifacts: need.artifacts, optional: need.optional })) ?? [],
  };
}

export type CiLintService = ReturnType<typeof createCiLintService>;
