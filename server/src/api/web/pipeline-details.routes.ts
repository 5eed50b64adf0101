import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import { pipelineDetailedStatus } from '../../domains/pipelines/engine/detailed-status.js';
import { isCompleted } from '../../domains/pipelines/engine/status.js';
import type { PipelineRelations, RelatedPipeline } from '../../domains/pipelines/downstream/pipeline-relations.service.js';
import type { JobRow } from '../../domains/pipelines/pipeline.js';
import type { PipelinesService } from '../../domains/pipelines/pipelines.service.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { STATUSES, type Status } from '../../domains/pipelines/engine/status.js';
import type { JobArtifacts } from '../../domains/runner-protocol/job-artifacts.service.js';
import { jobEntity, pipelineEntity } from '../rest/entities/pipelines.js';
import type { UrlBuilder } from '../rest/entities/users.js';
import { paginationHeaders, parsePage, requestUrl } from '../rest/pagination.js';
import { groupJobs } from '@tributary/contracts';
import { projectPathRoute } from './project-path-routes.js';

const pipelinePath = (fullPath: string, id: number) => `/${fullPath}/-/pipelines/${id}`;

/** GitLab's TriggeredPipelineEntity: a pipeline upstream or downstream of the one shown, with its project and trigger job. */
export function triggeredPipelineEntity(related: RelatedPipeline) {
  const { pipeline, project } = related;
  const path = pipelinePath(project.full_path, pipeline.id);
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    active: !isCompleted(pipeline.status),
    coverage: pipeline.coverage === null ? null : pipeline.coverage.toFixed(2),
    source: pipeline.source,
    path,
    details: { status: pipelineDetailedStatus({ status: pipeline.status, warnings: related.warnings }, path) },
    project: { id: project.id, name: project.name, full_path: project.full_path, full_name: project.full_name },
    source_job: related.sourceJobName === null ? null : { name: related.sourceJobName },
  };
}

/**
 * GitLab's pipeline JSON of the pipeline page, `GET /:full_path/-/pipelines/:id.json`, with the
 * fields the graph needs: the pipeline's id, path and status, `triggered_by` (the upstream
 * pipeline) and `triggered` (the downstream ones). Same authentication and permission path as the
 * API: a pipeline the caller may not see is a 404.
 */
/** GitLab's most jobs in one pipeline: the DAG JSON reads them all in one page. */
const MAX_PIPELINE_JOBS = 2000;

/**
 * GitLab's Ci::DagPipelineEntity: the pipeline's stages, their job groups, and each job's name
 * with `needs` (the names of the jobs it needs) when it is scheduled by its needs (a job
 * without `needs:` waits for the stages before it and has no such list).
 */
export function dagPipelineEntity(jobs: readonly Pick<JobRow, 'name' | 'stage' | 'stage_idx' | 'scheduling_type' | 'needs'>[]) {
  const stages = new Map<string, { index: number; jobs: (typeof jobs)[number][] }>();
  for (const job of jobs) {
    const stage = stages.get(job.stage) ?? { index: job.stage_idx, jobs: [] };
    stage.jobs.push(job);
    stages.set(job.stage, stage);
  }
  return {
    stages: [...stages]
      .sort(([, a], [, b]) => a.index - b.index)
      .map(([name, stage]) => ({
        name,
        groups: groupJobs(stage.jobs).map((group) => ({
          name: group.name,
          size: group.jobs.length,
          jobs: group.jobs.map((job) => (job.scheduling_type === 'dag' ? { name: job.name, needs: job.needs.map((need) => need.name) } : { name: job.name })),
        })),
      })),
  };
}

/** The pipelines page's filters, as the API's list takes them; anything else is a 400 and nothing is read. */
function pipelineListFilter(query: Record<string, unknown>) {
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.includes('\0')) throw new ValidationError(`${name} is invalid`);
    return value;
  };
  const status = text('status');
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new ValidationError('status does not have a valid value');
  // the API's page and per_page rule (20 by default, at most 100)
  const page = parsePage(query);
  return { page, filter: { status: status as Status | undefined, ref: text('ref'), source: text('source'), username: text('username'), orderBy: 'id' as const, sort: 'desc' as const, limit: page.limit, offset: page.offset } };
}

export function pipelineDetailsRoutes(
  app: FastifyInstance,
  deps: {
    authenticate(request: FastifyRequest): Promise<Actor>;
    relations: PipelineRelations;
    pipelines: Pick<PipelinesService, 'get' | 'jobs' | 'listWithJobs'>;
    artifacts: Pick<JobArtifacts, 'describe'>;
    urls: UrlBuilder;
    externalUrl: string;
  },
): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  /**
   * The pipelines page, `GET /:full_path/-/pipelines.json` (GitLab's pipelines list JSON, in the
   * shapes of our API): a page of the project's pipelines, newest first, filtered by status, ref,
   * source and triggerer, each as the API's pipeline with `jobs` (its latest jobs and trigger
   * jobs, as `…/pipelines/:id/jobs` and `…/bridges` give them), and GitLab's pagination headers.
   * One request and a fixed number of reads for the page, where the page asked for each row's
   * pipeline and jobs. Who may not read the pipelines gets a 404, as GitLab's web controllers answer.
   */
  projectPathRoute(app, '/-/pipelines.json', async (request, reply, fullPath) => {
    const { page, filter } = pipelineListFilter(request.query as Record<string, unknown>);
    const result = await deps.pipelines.listWithJobs(request.actor, fullPath, filter).catch((error: unknown) => {
      throw error instanceof ForbiddenError ? new NotFoundError() : error;
    });
    const artifacts = await deps.artifacts.describe(result.jobs.map((job) => job.id));
    const jobsOf = new Map<number, ReturnType<typeof jobEntity>[]>();
    for (const job of result.jobs) {
      const list = jobsOf.get(job.pipeline_id) ?? [];
      list.push(jobEntity(job, result.project, deps.urls, result.jobFacts, artifacts.get(job.id)));
      jobsOf.set(job.pipeline_id, list);
    }
    reply.header('cache-control', 'no-cache');
    reply.headers(paginationHeaders(requestUrl(request, deps.externalUrl), page, result.total));
    return result.pipelines.map((pipeline) => ({ ...pipelineEntity(pipeline, result.project, deps.urls, result), jobs: jobsOf.get(pipeline.id) ?? [] }));
  });

  projectPathRoute(app, '/-/pipelines/:pipeline_id.json', async (request, reply, fullPath, params) => {
    const id = /^\d{1,12}$/.test(params.pipeline_id ?? '') ? Number(params.pipeline_id) : 0;
    if (id === 0) throw new NotFoundError();
    const found = await deps.relations.of(request.actor, fullPath, id);
    reply.header('cache-control', 'no-cache');
    const path = pipelinePath(found.project.full_path, found.pipeline.id);
    return {
      id: found.pipeline.id,
      iid: found.pipeline.iid,
      path,
      details: { status: pipelineDetailedStatus({ status: found.pipeline.status, warnings: found.warnings }, path) },
      triggered_by: found.upstream ? triggeredPipelineEntity(found.upstream) : null,
      triggered: found.downstream.map(triggeredPipelineEntity),
    };
  });

  /**
   * GitLab's DAG JSON of the pipeline page, `GET /:full_path/-/pipelines/:id/dag.json`: what the
   * graph's "Job dependencies" view draws its links from. The API's job entity has no `needs`.
   */
  projectPathRoute(app, '/-/pipelines/:pipeline_id/dag.json', async (request, reply, fullPath, params) => {
    const id = /^\d{1,12}$/.test(params.pipeline_id ?? '') ? Number(params.pipeline_id) : 0;
    if (id === 0) throw new NotFoundError();
    // A web page's JSON: GitLab's web controllers answer 404, never 403, when pipelines may not be read.
    const { jobs } = await deps.pipelines.jobs(request.actor, fullPath, { pipelineId: id, limit: MAX_PIPELINE_JOBS, offset: 0 }).catch((error: unknown) => {
      throw error instanceof ForbiddenError ? new NotFoundError() : error;
    });
    reply.header('cache-control', 'no-cache');
    return dagPipelineEntity(jobs.filter((job) => job.type !== 'generic'));
  });
}
