/**
 * Creates a pipeline the way GitLab's Ci::CreatePipelineService does: the commit of the ref,
 * `[ci skip]`, the `.gitlab-ci.yml` at that commit compiled in the pipeline's context, then
 * the pipeline, its stages, jobs and variables stored in one transaction and processed once.
 *
 * A push saves what went wrong (a configuration error is a failed pipeline with `yaml_errors`
 * and failure_reason config_error; `[ci skip]` a skipped pipeline) and creates nothing when
 * there is no configuration or no job. The API saves nothing on an error and answers 400 with
 * GitLab's `{"message": {"base": [...]}}`.
 */
import type { Actor } from '../../auth/actor.js';
import { changedPaths } from '../../git/changed-paths.js';
import { getCommit } from '../../git/commits.js';
import { resolveCommit } from '../../git/refs.js';
import { readTree } from '../../git/tree.js';
import type { Database } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import type { Project } from '../projects/project.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import { compilePipelineConfig } from './config/compile.js';
import { predefinedVariables } from './config/predefined-variables.js';
import { skipsCi } from './config/skip-ci.js';
import type { PipelineSource } from './config/types.js';
import { configFileReader, readConfigBlob } from './config-file-reader.js';
import type { JobListener, PipelineRow, PipelineVariable } from './pipeline.js';
import type { PipelineEngine } from './pipeline-engine.service.js';
import type { PipelinesRepository } from './pipelines.repository.js';

export const CREATE_FOR_PUSH_JOB = 'pipelines.create_for_push';
export const CI_CONFIG_PATH = '.gitlab-ci.yml';
const ZERO_SHA = /^0+$/;

/** GitLab's answers when a pipeline cannot be created. */
export const CREATE_ERRORS = {
  missingConfig: 'Missing CI config file',
  referenceNotFound: 'Reference not found',
  commitNotFound: 'Commit not found',
} as const;

export interface CreatePipelineInput {
  project: Project;
  /** branch or tag name */
  ref: string;
  source: PipelineSource;
  actor: Actor;
  /** the commit; the ref's tip when absent */
  sha?: string;
  beforeSha?: string;
  tag?: boolean;
  variables?: PipelineVariable[];
  pushOptions?: readonly string[];
  /** the pipeline schedule creating it (source `schedule`) */
  pipelineScheduleId?: number;
  /**
   * A merge request pipeline (source `merge_request_event`): `ref` is stored as given
   * (refs/merge-requests/:iid/head or /merge, or the source branch in a fork) and `sha` is the
   * commit to run; the variables see the source branch as CI_COMMIT_REF_NAME, as in GitLab.
   */
  mergeRequest?: MergeRequestPipelineInput;
}

export interface MergeRequestPipelineInput {
  id: number;
  sourceBranch: string;
  /** a merged results pipeline's head and target; null for a detached one */
  sourceSha: string | null;
  targetSha: string | null;
  /** the merge base: `rules:changes` sees the paths the merge request changes */
  diffBaseSha: string | null;
  /** the CI_MERGE_REQUEST_* variables (config/merge-request-variables.ts) */
  variables: { key: string; value: string }[];
}

export type CreateOutcome = { pipeline: PipelineRow } | { error: string[] };

export function createPipelineCreation(deps: {
  db: Pick<Database, 'transaction'>;
  pipelines: PipelinesRepository;
  engine: Pick<PipelineEngine, 'process' | 'cancelRedundant'>;
  access: Pick<RepositoryAccess, 'open'>;
  repoPath: (projectId: number) => string;
  serverUrl: string;
  /** told of the new pipeline's jobs in its transaction (the domain's index.ts fills it) */
  listeners?: readonly JobListener[];
}) {
  /** Where the ref points: a branch first, then a tag (GitLab's order), or null. */
  async function resolveRef(repoPath: string, ref: string, tag: boolean | undefined): Promise<{ sha: string; tag: boolean } | null> {
    if (tag !== true) {
      const branch = await resolveCommit(repoPath, `refs/heads/${ref}`);
      if (branch) return { sha: branch, tag: false };
    }
    if (tag !== false) {
      const found = await resolveCommit(repoPath, `refs/tags/${ref}`);
      if (found) return { sha: found, tag: true };
    }
    return null;
  }

  /**
   * Compiles and stores a pipeline. `save` says whether failures are stored as pipelines (a
   * push) or only answered (the API).
   */
  async function create(input: CreatePipelineInput, save: boolean, explain = false): Promise<CreateOutcome | null> {
    const { project } = input;
    const repoPath = deps.repoPath(project.id);
    const mergeRequest = input.mergeRequest;
    // A merge request pipeline names its commit; its ref may be one no branch or tag holds.
    const resolved = mergeRequest && input.sha ? { sha: input.sha, tag: false } : await resolveRef(repoPath, input.ref, input.tag);
    if (!resolved) return { error: [CREATE_ERRORS.referenceNotFound] };
    const sha = input.sha ?? resolved.sha;
    const commit = await getCommit(repoPath, sha);
    if (!commit) return { error: [CREATE_ERRORS.commitNotFound] };
    const beforeSha = input.beforeSha ?? '0'.repeat(40);
    const base = {
      projectId: project.id,
      sha,
      beforeSha,
      ref: input.ref,
      tag: resolved.tag,
      source: input.source,
      userId: input.actor.user?.id ?? null,
      committedAt: commit.committed_date,
      pipelineScheduleId: input.pipelineScheduleId ?? null,
      mergeRequest: mergeRequest ? { id: mergeRequest.id, sourceSha: mergeRequest.sourceSha, targetSha: mergeRequest.targetSha, variables: mergeRequest.variables } : null,
    };
    const store = (status: 'failed' | 'skipped', extra: { yamlErrors?: string; failureReason?: string } = {}) =>
      deps.db.transaction(async (tx) => {
        const pipeline = await deps.pipelines.insertPipeline({ ...base, status, ...extra }, tx);
        for (const listener of deps.listeners ?? []) await listener.pipelineCreated?.(pipeline, tx);
        return { pipeline };
      });

    if (skipsCi({ source: input.source, commitMessage: commit.message, pushOptions: input.pushOptions })) return save ? store('skipped') : null;

    const config = await readConfigBlob(repoPath, sha, CI_CONFIG_PATH);
    if ('error' in config) return save && !explain ? null : { error: [CREATE_ERRORS.missingConfig] };

    const entries = (await readTree(repoPath, sha, '', { recursive: true })) ?? [];
    // GitLab's rules:changes: a push compares with the commit before it, a merge request pipeline with the merge base.
    const changed =
      input.source === 'push' && !resolved.tag && !ZERO_SHA.test(beforeSha)
        ? ((await changedPaths(repoPath, beforeSha, sha)) ?? undefined)
        : mergeRequest?.diffBaseSha
          ? ((await changedPaths(repoPath, mergeRequest.diffBaseSha, mergeRequest.sourceSha ?? sha)) ?? undefined)
          : undefined;
    const variablesRef = mergeRequest ? mergeRequest.sourceBranch : input.ref;
    const namespacePath = project.full_path.slice(0, project.full_path.lastIndexOf('/'));
    const variables = {
      ...predefinedVariables({
        serverUrl: deps.serverUrl,
        project: { id: project.id, name: project.name, path: project.path, fullPath: project.full_path, namespacePath, defaultBranch: project.default_branch, visibility: project.visibility },
        source: input.source,
        ref: variablesRef,
        tag: resolved.tag,
        sha,
        beforeSha,
        commitMessage: commit.message,
      }),
      ...Object.fromEntries((mergeRequest?.variables ?? []).map((v) => [v.key, v.value])),
      ...Object.fromEntries((input.variables ?? []).map((v) => [v.key, v.value])),
    };
    const readFile = configFileReader(deps.access, input.actor, project, repoPath, sha);
    const result = await compilePipelineConfig(
      config.content,
      {
        source: input.source,
        ref: variablesRef,
        tag: resolved.tag,
        sha,
        beforeSha,
        changedPaths: changed,
        existingPaths: entries.filter((entry) => entry.type === 'blob').map((entry) => entry.path),
        variables,
        projectPath: project.full_path,
        commitMessage: commit.message,
        pushOptions: input.pushOptions,
      },
      readFile,
    );
    if (result.status === 'error') {
      return save ? store('failed', { yamlErrors: result.errors.join(', '), failureReason: 'config_error' }) : { error: result.errors };
    }
    if (result.status === 'skipped') {
      if (result.reason === 'ci_skip') return save ? store('skipped') : null;
      return save && !explain ? null : { error: [result.message] };
    }
    const { plan } = result;
    const pipeline = await deps.db.transaction(async (tx) => {
      const row = await deps.pipelines.insertPipeline({ ...base, status: 'created', name: plan.name ?? null }, tx);
      // GitLab stores only the stages that have jobs.
      const usedStages = plan.stages.filter((stage) => plan.jobs.some((job) => job.stage === stage));
      const stageIds = await deps.pipelines.insertStages(row.id, project.id, usedStages, tx);
      for (const job of plan.jobs) await deps.pipelines.insertJob(row, stageIds.get(job.stage)!, job, tx);
      await deps.pipelines.insertVariables(row.id, input.variables ?? [], tx);
      if ((deps.listeners ?? []).length > 0) {
        const jobs = await deps.pipelines.latestJobs(row.id, tx);
        for (const listener of deps.listeners ?? []) await listener.jobsCreated?.(row, jobs, tx);
      }
      const processed = (await deps.engine.process(row.id, tx)) ?? row;
      await deps.engine.cancelRedundant(row, resolved.sha, tx);
      for (const listener of deps.listeners ?? []) await listener.pipelineCreated?.(processed, tx);
      return processed;
    });
    return { pipeline };
  }

  return {
    /** For a pushed ref: stores what GitLab stores (a pipeline, a failed or skipped one), or nothing. */
    async createForPush(input: CreatePipelineInput): Promise<PipelineRow | null> {
      // The creation job runs at least once: a retry after a stored pipeline stores no second one.
      if (input.sha && (await deps.pipelines.existsForPush(input.project.id, input.ref, input.tag === true, input.sha, input.beforeSha ?? '0'.repeat(40)))) return null;
      const outcome = await create(input, true);
      return outcome && 'pipeline' in outcome ? outcome.pipeline : null;
    },

    /**
     * For a pipeline schedule: stores what GitLab stores with save_on_errors (a failed pipeline for
     * a configuration error), or answers why nothing was created.
     */
    async createForSchedule(input: CreatePipelineInput): Promise<CreateOutcome | null> {
      return create({ ...input, source: 'schedule' }, true);
    },

    /**
     * For a merge request (source merge_request_event): stores what a push stores (a failed
     * pipeline for a configuration error, a skipped one for `[ci skip]`), nothing when no job's
     * rules take `merge_request_event`; answers why nothing was created.
     */
    async createForMergeRequest(input: CreatePipelineInput & { mergeRequest: MergeRequestPipelineInput; sha: string }): Promise<CreateOutcome | null> {
      return create({ ...input, source: 'merge_request_event', tag: false }, true, true);
    },

    /** For `POST /projects/:id/pipeline`: the pipeline, or a 400 with GitLab's messages. */
    async createForApi(input: CreatePipelineInput): Promise<PipelineRow> {
      const outcome = await create(input, false);
      if (!outcome) throw new ValidationError({ base: ['Pipeline skipped by [ci skip]'] });
      if ('error' in outcome) throw new ValidationError({ base: outcome.error });
      return outcome.pipeline;
    },
  };
}

export type PipelineCreation = ReturnType<typeof createPipelineCreation>;
