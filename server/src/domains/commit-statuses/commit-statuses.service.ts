/**
 * Commit statuses from outside CI systems (GitLab's POST /projects/:id/statuses/:sha and
 * CreateCommitStatusService). A status is a generic job in the `external` stage of the newest
 * pipeline of its commit (of its ref, and the `pipeline_id` when given); a commit without one gets
 * a new pipeline with source `external`. The pending or running status of the same name by the
 * same user is updated in place; otherwise a new job is added and older ones of that name become
 * `retried`. The posted state moves the job through GitLab's state machine, then the pipeline is
 * processed, so its composite status (and everything that reads pipelines) includes the status.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { refsContaining } from '../../git/ref-contains.js';
import { resolveCommit } from '../../git/refs.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { PipelineEngine } from '../pipelines/pipeline-engine.service.js';
import type { JobRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { User } from '../users/user.js';
import { usersByIds } from '../users/users.repository.js';
import type { CommitStatusesRepository, StatusListFilter } from './commit-statuses.repository.js';
import { planState, type CommitStatusState } from './external-state.js';

export interface CommitStatusInput {
  state: CommitStatusState;
  ref?: string;
  name?: string;
  context?: string;
  targetUrl?: string;
  description?: string;
  coverage?: number;
  pipelineId?: number;
}

export type CommitStatusRow = JobRow & { ref: string; sha: string };

const MAX_LENGTH = 255;

/** GitLab's validations of a GenericCommitStatus's target_url and description, as `{field: [errors]}`; null when valid. */
export function commitStatusErrors(input: Pick<CommitStatusInput, 'targetUrl' | 'description' | 'name' | 'context'>): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const tooLong = `is too long (maximum is ${MAX_LENGTH} characters)`;
  if (input.targetUrl !== undefined) {
    if (input.targetUrl.length > MAX_LENGTH) errors.target_url = [tooLong];
    else if (!isHttpUrl(input.targetUrl)) errors.target_url = ['must be a valid URL'];
  }
  if (input.description !== undefined && input.description.length > MAX_LENGTH) errors.description = [tooLong];
  const name = input.name ?? input.context;
  if (name !== undefined && name.length > MAX_LENGTH) errors.name = [tooLong];
  return Object.keys(errors).length > 0 ? errors : null;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function createCommitStatusesService(deps: {
  db: Pick<Database, 'transaction'> & Parameters<typeof usersByIds>[0];
  statuses: CommitStatusesRepository;
  pipelinesRepository: Pick<PipelinesRepository, 'insertPipeline' | 'lockPipeline' | 'findJob'>;
  engine: Pick<PipelineEngine, 'moveInTx' | 'process'>;
  pipelines: Pick<PipelinesService, 'mayUpdateRef'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  repoPath: (projectId: number) => string;
}) {
  async function commitOf(project: Project, sha: string): Promise<string> {
    const commit = /^[\w./-]{1,255}$/.test(sha) && !sha.startsWith('-') ? await resolveCommit(deps.repoPath(project.id), sha) : null;
    if (!commit) throw new NotFoundError('Commit');
    return commit;
  }

  async function withAuthors(rows: CommitStatusRow[]): Promise<{ rows: CommitStatusRow[]; users: Map<number, User> }> {
    return { rows, users: await usersByIds(deps.db, rows.map((row) => row.user_id)) };
  }

  return {
    /** POST /projects/:id/statuses/:sha: Developers and above, 404 for a project or commit the caller cannot see. */
    async create(actor: Actor, idOrPath: string | number, sha: string, input: CommitStatusInput) {
      const project = await deps.projects.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'update_pipeline', { project });
      const user = actor.user!;
      const commit = await commitOf(project, sha);
      const errors = commitStatusErrors(input);
      if (errors) throw new ValidationError(errors);

      const existing = await deps.statuses.firstMatchingPipeline(project.id, commit, { ref: input.ref, pipelineId: input.pipelineId });
      if (input.pipelineId !== undefined && !existing) throw new NotFoundError('Pipeline for pipeline_id, sha and ref');
      const repoPath = deps.repoPath(project.id);
      const ref = input.ref ?? existing?.ref ?? (await refsContaining(repoPath, commit, ['branch']))[0]?.name;
      if (!ref) throw new NotFoundError('References for commit');
      const tag = existing ? existing.tag : (await resolveCommit(repoPath, `refs/heads/${ref}`)) === null && (await resolveCommit(repoPath, `refs/tags/${ref}`)) !== null;
      // GitLab's update_pipeline on the pipeline: a protected ref must let the caller push (or create the tag).
      if (!(await deps.pipelines.mayUpdateRef(actor, project, ref, tag))) throw new ForbiddenError();
      const name = input.name ?? input.context ?? 'default';

      const jobId = await deps.db.transaction(async (tx) => {
        const pipeline =
          existing ?? (await deps.pipelinesRepository.insertPipeline({ projectId: project.id, sha: commit, beforeSha: '0'.repeat(40), ref, tag, source: 'external', status: 'created', userId: user.id }, tx));
        await deps.pipelinesRepository.lockPipeline(pipeline.id, tx);
        const stageId = await deps.statuses.externalStage(pipeline.id, project.id, tx);
        let job = await deps.statuses.openStatus(pipeline.id, name, user.id, tx);
        if (!job) job = (await deps.pipelinesRepository.findJob(await deps.statuses.insertStatus({ pipelineId: pipeline.id, projectId: project.id, stageId, name, userId: user.id }, tx), tx))!;
        const plan = planState(job.status, input.state);
        if (!plan.ok) throw new ValidationError(plan.message);
        await deps.statuses.updateDetails(job.id, { target_url: input.targetUrl, description: input.description, coverage: input.coverage }, tx);
        for (const step of plan.path) {
          const moved = await deps.engine.moveInTx(job, step.event, tx, step.event === 'drop' ? { failure_reason: 'api_failure' } : {});
          if (!moved) throw new ValidationError(`Cannot transition status via :${step.event} from :${job.status}`);
          job = moved;
        }
        await deps.engine.process(pipeline.id, tx);
        return job.id;
      });
      const row = (await deps.statuses.list({ projectId: project.id, sha: commit, all: true, orderBy: 'id', sort: 'desc', limit: 1, offset: 0, name })).rows.find((r) => r.id === jobId);
      return { project, ...(await withAuthors(row ? [row] : [])) };
    },

    /** GET /projects/:id/repository/commits/:sha/statuses: every job of the commit's pipelines (the latest ones unless `all`). */
    async list(actor: Actor, idOrPath: string | number, sha: string, filter: Omit<StatusListFilter, 'projectId' | 'sha'>) {
      const project = await deps.projects.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'read_pipeline', { project });
      const commit = await commitOf(project, sha);
      const result = await deps.statuses.list({ ...filter, projectId: project.id, sha: commit });
      return { project, total: result.total, ...(await withAuthors(result.rows)) };
    },
  };
}

export type CommitStatusesService = ReturnType<typeof createCommitStatusesService>;
