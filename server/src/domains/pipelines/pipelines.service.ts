/**
 * Pipelines and jobs as the REST API serves them: every call finds the project (404 when the
 * caller may not see it), asks the one permission function, and for what changes a pipeline
 * (create, retry, cancel, play) also GitLab's `can_update_branch?` on its ref: a protected
 * branch must grant the caller push or merge, a protected tag creation.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { canReadPipelineVariables, type ProjectAction } from '../../auth/permissions.js';
import { getCommitsByIds } from '../../git/commits.js';
import { resolveCommit } from '../../git/refs.js';
import type { Queryable } from '../../platform/db/database.js';
import type { User } from '../users/user.js';
import { usersByIds } from '../users/users.repository.js';
import { ForbiddenError, NotFoundError, RecordNotFoundError, UnprocessableError, ValidationError } from '../../platform/errors.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import { canMergeIntoBranch } from '../protected-branches/push-rules.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import { canCreateTag } from '../protected-tags/tag-rules.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import type { Status } from './engine/status.js';
import type { JobRow, PipelineRow, PipelineVariable } from './pipeline.js';
import type { PipelineCreation } from './pipeline-creation.service.js';
import { UnplayableJobError, UnretryableJobError, UnschedulableJobError, type PipelineEngine } from './pipeline-engine.service.js';
import type { JobListFilter, PipelineListFilter, PipelinesRepository } from './pipelines.repository.js';
import type { DownstreamRepository } from './downstream/downstream.repository.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';

export const PIPELINE_MESSAGES = {
  protectedRef: (ref: string) => `You do not have sufficient permission to run a pipeline on '${ref}'. Please select a different branch or contact your administrator for assistance.`,
  notRetryable: '403 Forbidden - Job is not retryable',
  /** GitLab: a finished merge train pipeline is not retried; the merge request is added to the train again */
  mergeTrainNotRetryable: 'Merge train pipeline jobs can not be retried',
  insufficientPermissions: 'Insufficient permissions to create a new pipeline',
  unplayable: '400 Bad request - Unplayable Job',
  /** GitLab's BuildUnscheduleService answer for a job that is not scheduled */
  unschedulable: 'Unprocessable entity',
} as const;

export function createPipelinesService(deps: {
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize' | 'can' | 'abilities'>;
  access: Pick<RepositoryAccess, 'pusher'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  pipelines: PipelinesRepository;
  engine: PipelineEngine;
  creation: PipelineCreation;
  repoPath: (projectId: number) => string;
  /** for the users pipelines and jobs show */
  db: Queryable;
  /** the pipelines trigger jobs created, and the projects they are in */
  downstream: Pick<DownstreamRepository, 'downstreamOfBridges'>;
  projectRows: Pick<ProjectsRepository, 'findById'>;
}) {
  const repo = deps.pipelines;

  /** What the entities show beside the rows: users, allowed-failure warnings. */
  async function pipelineFacts(pipelines: readonly PipelineRow[]) {
    const [users, warnings] = await Promise.all([usersByIds(deps.db, pipelines.map((p) => p.user_id)), repo.withWarnings(pipelines.map((p) => p.id))]);
    return { users, warnings };
  }

  /**
   * What job entities show: users, commits, pipelines, and which refs the viewer may act on. A
   * fixed number of reads however many jobs: the pipelines, users, commits (one git call), the
   * ref rules and the downstream pipelines with their projects are each read once for all.
   */
  async function jobFacts(actor: Actor, project: Project, jobs: readonly JobRow[]) {
    const bridges = jobs.filter((job) => job.type === 'bridge').map((job) => job.id);
    const [pipelines, mayUpdate, downstream] = await Promise.all([
      repo.pipelinesByIds(jobs.map((job) => job.pipeline_id)),
      deps.authorizer.can(actor, 'update_pipeline', { project }),
      deps.downstream.downstreamOfBridges(bridges),
    ]);
    const otherProjects = [...new Set([...downstream.values()].map((pipeline) => pipeline.project_id).filter((id) => id !== project.id))];
    const [users, commits, updatableRef, others] = await Promise.all([
      usersByIds(deps.db, [...jobs.map((job) => job.user_id), ...[...pipelines.values()].map((p) => p.user_id)]),
      getCommitsByIds(deps.repoPath(project.id), [...pipelines.values()].map((pipeline) => pipeline.sha)),
      mayUpdate ? refUpdateRule(actor, project, [...pipelines.values()]) : Promise.resolve(() => false),
      Promise.all(otherProjects.map(async (id) => [id, (await deps.projectRows.findById(id))?.full_path ?? ''] as const)),
    ]);
    const updatable = new Map<string, boolean>();
    for (const pipeline of pipelines.values()) {
      const key = `${pipeline.tag}:${pipeline.ref}`;
      if (!updatable.has(key)) updatable.set(key, updatableRef(pipeline.ref, pipeline.tag));
    }
    const projectPaths = new Map<number, string>([[project.id, project.full_path], ...others]);
    return {
      users,
      commits,
      pipelines,
      /** a bridge's downstream pipeline and the full path of its project */
      downstreamOf: (job: JobRow) => {
        const pipeline = downstream.get(job.id);
        return pipeline ? { pipeline, fullPath: projectPaths.get(pipeline.project_id)! } : null;
      },
      canUpdate: (job: JobRow) => {
        const pipeline = pipelines.get(job.pipeline_id);
        return pipeline ? updatable.get(`${pipeline.tag}:${pipeline.ref}`) === true : false;
      },
    };
  }

  async function open(actor: Actor, idOrPath: string | number, action: ProjectAction): Promise<Project> {
    const project = await deps.projects.find(actor, idOrPath);
    await deps.authorizer.authorize(actor, action, { project });
    return project;
  }

  /**
   * GitLab's can_update_branch? (branches) or can_create_tag? (tags), for the refs of these
   * pipelines: the caller's access and the project's protected branches (and tags, when a tag is
   * among them) are read once, then each ref is decided by the pure rules.
   */
  async function refUpdateRule(actor: Actor, project: Project, refs: readonly { tag: boolean }[]): Promise<(ref: string, tag: boolean) => boolean> {
    if (!actor.user || refs.length === 0) return () => false;
    const [pusher, branches, tags] = await Promise.all([
      deps.access.pusher(actor, project),
      refs.some((ref) => !ref.tag) ? deps.protectedBranches.listForProject(project.id) : Promise.resolve([]),
      refs.some((ref) => ref.tag) ? deps.protectedTags.listForProject(project.id) : Promise.resolve([]),
    ]);
    return (ref, tag) => (tag ? canCreateTag(pusher, ref, tags) : canMergeIntoBranch(pusher, ref, branches, project.archived));
  }

  /** GitLab's can_update_branch? (branches) or can_create_tag? (tags) for the pipeline's ref. */
  async function mayUpdateRef(actor: Actor, project: Project, ref: string, tag: boolean): Promise<boolean> {
    return (await refUpdateRule(actor, project, [{ tag }]))(ref, tag);
  }

  async function pipelineFor(project: Project, pipelineId: number): Promise<PipelineRow> {
    const pipeline = await repo.findPipeline(project.id, pipelineId);
    if (!pipeline) throw new NotFoundError();
    return pipeline;
  }

  async function mayReadVariables(actor: Actor, project: Project, pipeline: PipelineRow): Promise<boolean> {
    const abilities = (await deps.authorizer.abilities(actor, { project })) as ReadonlySet<ProjectAction>;
    return canReadPipelineVariables(abilities, actor.user !== null && pipeline.user_id === actor.user.id);
  }

  async function jobFor(project: Project, jobId: number): Promise<JobRow> {
    const job = await repo.findJob(jobId);
    if (!job || job.project_id !== project.id) throw new NotFoundError();
    return job;
  }

  /** update_pipeline / update_build on the ref of `pipeline`: 403 when the ref is protected from the caller. */
  async function openToUpdate(actor: Actor, idOrPath: string | number, pipelineOf: (project: Project) => Promise<PipelineRow>) {
    const project = await open(actor, idOrPath, 'update_pipeline');
    const pipeline = await pipelineOf(project);
    if (!(await mayUpdateRef(actor, project, pipeline.ref, pipeline.tag))) throw new ForbiddenError();
    return { project, pipeline };
  }

  return {
    /**
     * The project when `actor` may read its pipelines and jobs (read_pipeline, with GitLab's
     * public_builds), else null: what a live page's subscription checks on every delivery.
     */
    async readableProject(actor: Actor, projectId: number): Promise<Project | null> {
      return open(actor, projectId, 'read_pipeline').catch(() => null);
    },

    /**
     * Why `actor` may not create a pipeline on the branch or tag now, or null when they may: what
     * POST /pipeline checks, and what a pipeline schedule checks of its owner before each run.
     */
    async refusalToCreate(actor: Actor, project: Project, ref: string, tag: boolean): Promise<string | null> {
      if (!actor.user || actor.user.state !== 'active' || !(await deps.authorizer.can(actor, 'create_pipeline', { project }))) return PIPELINE_MESSAGES.insufficientPermissions;
      return (await mayUpdateRef(actor, project, ref, tag)) ? null : PIPELINE_MESSAGES.protectedRef(ref);
    },

    mayUpdateRef,

    /** What the pipeline entities show beside the rows (users, allowed-failure warnings). */
    describe: pipelineFacts,

    /** Jobs of `project` with what their entities show (for deployments' `deployable`). */
    async describeJobs(actor: Actor, project: Project, jobIds: readonly number[]) {
      const jobs = [...(await repo.jobsByIds(jobIds)).values()].filter((job) => job.project_id === project.id);
      return { jobs: new Map(jobs.map((job) => [job.id, job])), facts: await jobFacts(actor, project, jobs) };
    },

    async list(actor: Actor, idOrPath: string | number, filter: Omit<PipelineListFilter, 'projectId'>) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const result = await repo.listPipelines({ ...filter, projectId: project.id });
      return { project, ...result, ...(await pipelineFacts(result.pipelines)) };
    },

    /**
     * A page of pipelines with everything the pipelines page shows of each: its users, warnings,
     * and its latest jobs and trigger jobs (the mini graph) with their facts. A fixed number of
     * reads whatever the page size, where asking for each pipeline and its jobs cost a few reads
     * a row.
     */
    async listWithJobs(actor: Actor, idOrPath: string | number, filter: Omit<PipelineListFilter, 'projectId'>) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const result = await repo.listPipelines({ ...filter, projectId: project.id });
      const ids = result.pipelines.map((pipeline) => pipeline.id);
      const [facts, latest] = await Promise.all([pipelineFacts(result.pipelines), repo.latestJobsOfPipelines(ids)]);
      // the jobs and trigger jobs the pipeline's job lists show (an outside CI's commit statuses are not jobs)
      const jobs = latest.filter((job) => job.type !== 'generic').sort((a, b) => a.id - b.id);
      return { project, ...result, ...facts, jobs, jobFacts: await jobFacts(actor, project, jobs) };
    },

    async get(actor: Actor, idOrPath: string | number, pipelineId: number) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const pipeline = await pipelineFor(project, pipelineId);
      return { project, pipeline, ...(await pipelineFacts([pipeline])) };
    },

    /** The newest pipeline of the ref's latest commit (the default branch when no ref). */
    async latest(actor: Actor, idOrPath: string | number, ref: string | undefined) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const name = ref || project.default_branch;
      const sha = (await resolveCommit(deps.repoPath(project.id), `refs/heads/${name}`)) ?? (await resolveCommit(deps.repoPath(project.id), `refs/tags/${name}`));
      const pipeline = sha ? await repo.latestForRef(project.id, name, sha) : null;
      if (!pipeline) throw new RecordNotFoundError();
      return { project, pipeline, ...(await pipelineFacts([pipeline])) };
    },

    async create(actor: Actor, idOrPath: string | number, input: { ref: string; variables: PipelineVariable[] }) {
      const project = await open(actor, idOrPath, 'create_pipeline');
      const repoPath = deps.repoPath(project.id);
      const isBranch = (await resolveCommit(repoPath, `refs/heads/${input.ref}`)) !== null;
      const isTag = !isBranch && (await resolveCommit(repoPath, `refs/tags/${input.ref}`)) !== null;
      if ((isBranch || isTag) && !(await mayUpdateRef(actor, project, input.ref, isTag))) {
        throw new ValidationError({ base: [PIPELINE_MESSAGES.protectedRef(input.ref)] });
      }
      // GitLab records `web` for the 'Run pipeline' form (a signed-in browser) and `api` for a token.
      const source = actor.via === 'session' ? 'web' : 'api';
      const pipeline = await deps.creation.createForApi({ project, ref: input.ref, source, actor, variables: input.variables });
      return { project, pipeline, ...(await pipelineFacts([pipeline])) };
    },

    async retry(actor: Actor, idOrPath: string | number, pipelineId: number) {
      const { project, pipeline } = await openToUpdate(actor, idOrPath, (p) => pipelineFor(p, pipelineId));
      if (mergeTrainRetryRefused(pipeline)) throw new ForbiddenError(PIPELINE_MESSAGES.mergeTrainNotRetryable);
      const retried = await deps.engine.retryPipeline(pipeline.id, actor.user!.id);
      return { project, pipeline: retried, ...(await pipelineFacts([retried])) };
    },

    async cancel(actor: Actor, idOrPath: string | number, pipelineId: number) {
      const { project, pipeline } = await openToUpdate(actor, idOrPath, (p) => pipelineFor(p, pipelineId));
      const canceled = await deps.engine.cancelPipeline(pipeline.id);
      return { project, pipeline: canceled, ...(await pipelineFacts([canceled])) };
    },

    async remove(actor: Actor, idOrPath: string | number, pipelineId: number): Promise<void> {
      const project = await open(actor, idOrPath, 'destroy_pipeline');
      const pipeline = await pipelineFor(project, pipelineId);
      await repo.deletePipeline(pipeline.id);
    },

    /** A pipeline's variables with their values: 403 unless the caller may read them (canReadPipelineVariables). */
    async variables(actor: Actor, idOrPath: string | number, pipelineId: number): Promise<PipelineVariable[]> {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const pipeline = await pipelineFor(project, pipelineId);
      if (!(await mayReadVariables(actor, project, pipeline))) throw new ForbiddenError();
      return repo.variables(pipeline.id);
    },

    /**
     * The pipeline page's Manual variables tab: every reader of the pipeline sees the keys; the
     * values are null unless the caller may read them (GitLab hides them behind 'Reveal values',
     * which only those callers get).
     */
    async manualVariables(actor: Actor, project: Project, pipeline: PipelineRow): Promise<{ canReadValues: boolean; variables: { id: number; key: string; value: string | null }[] }> {
      const canReadValues = await mayReadVariables(actor, project, pipeline);
      const variables = await repo.variables(pipeline.id);
      return { canReadValues, variables: variables.map((variable) => ({ id: variable.id, key: variable.key, value: canReadValues ? variable.value : null })) };
    },

    async jobs(actor: Actor, idOrPath: string | number, filter: Omit<JobListFilter, 'projectId'>) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      if (filter.pipelineId !== undefined) await pipelineFor(project, filter.pipelineId);
      const result = await repo.listJobs({ ...filter, projectId: project.id });
      return { project, ...result, facts: await jobFacts(actor, project, result.jobs) };
    },

    /** The job when `actor` may read it (as `job`), without the entity's facts: for reads of its log. */
    async readableJob(actor: Actor, idOrPath: string | number, jobId: number) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      return { project, job: await jobFor(project, jobId) };
    },

    async job(actor: Actor, idOrPath: string | number, jobId: number) {
      const project = await open(actor, idOrPath, 'read_pipeline');
      const job = await jobFor(project, jobId);
      return { project, job, facts: await jobFacts(actor, project, [job]) };
    },

    async cancelJob(actor: Actor, idOrPath: string | number, jobId: number) {
      let job!: JobRow;
      const { project } = await openToUpdate(actor, idOrPath, async (p) => {
        job = await jobFor(p, jobId);
        return (await repo.pipelineById(job.pipeline_id))!;
      });
      const canceled = (await repo.findJob((await deps.engine.cancelJob(job.id)).id))!;
      return { project, job: canceled, facts: await jobFacts(actor, project, [canceled]) };
    },

    async retryJob(actor: Actor, idOrPath: string | number, jobId: number) {
      let job!: JobRow;
      let pipeline!: PipelineRow;
      const { project } = await openToUpdate(actor, idOrPath, async (p) => {
        job = await jobFor(p, jobId);
        pipeline = (await repo.pipelineById(job.pipeline_id))!;
        return pipeline;
      });
      if (mergeTrainRetryRefused(pipeline)) throw new ForbiddenError(PIPELINE_MESSAGES.mergeTrainNotRetryable);
      try {
        const copy = (await repo.findJob((await deps.engine.retryJob(job.id, actor.user!.id)).id))!;
        return { project, job: copy, facts: await jobFacts(actor, project, [copy]) };
      } catch (error) {
        if (error instanceof UnretryableJobError) throw new ForbiddenError(PIPELINE_MESSAGES.notRetryable);
        throw error;
      }
    },

    /**
     * A delayed job back to manual (GitLab's unschedule, update_build on the job's ref): 422
     * "Unprocessable entity" when the job is not scheduled.
     */
    async unscheduleJob(actor: Actor, idOrPath: string | number, jobId: number) {
      let job!: JobRow;
      const { project } = await openToUpdate(actor, idOrPath, async (p) => {
        job = await jobFor(p, jobId);
        return (await repo.pipelineById(job.pipeline_id))!;
      });
      try {
        const manual = (await repo.findJob((await deps.engine.unscheduleJob(job.id)).id))!;
        return { project, job: manual, facts: await jobFacts(actor, project, [manual]) };
      } catch (error) {
        if (error instanceof UnschedulableJobError) throw new UnprocessableError(PIPELINE_MESSAGES.unschedulable);
        throw error;
      }
    },

    async playJob(actor: Actor, idOrPath: string | number, jobId: number, variables: { key: string; value: string }[] | undefined) {
      let job!: JobRow;
      const { project } = await openToUpdate(actor, idOrPath, async (p) => {
        job = await jobFor(p, jobId);
        return (await repo.pipelineById(job.pipeline_id))!;
      });
      try {
        const played = (await repo.findJob((await deps.engine.playJob(job.id, actor.user!.id, variables)).id))!;
        return { project, job: played, facts: await jobFacts(actor, project, [played]) };
      } catch (error) {
        if (error instanceof UnplayableJobError) throw new ValidationError(PIPELINE_MESSAGES.unplayable);
        throw error;
      }
    },
  };
}

export type PipelinesService = ReturnType<typeof createPipelinesService>;
export type { Status, User };
export type JobFacts = Awaited<ReturnType<PipelinesService['job']>>['facts'];

/**
 * A merge train pipeline that has ended is not retried (GitLab: the merge request is added to
 * the train again instead); while it runs, a job may be retried. Pure.
 */
export function mergeTrainRetryRefused(pipeline: Pick<PipelineRow, 'merge_request_id' | 'ref' | 'status'>): boolean {
  return pipeline.merge_request_id !== null && /^refs\/merge-requests\/\d+\/train$/.test(pipeline.ref) && ['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status);
}
