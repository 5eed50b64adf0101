import type { FastifyInstance } from 'fastify';
import { STATUSES, type Status } from '../../../domains/pipelines/engine/status.js';
import type { PipelineVariable } from '../../../domains/pipelines/pipeline.js';
import { ValidationError } from '../../../platform/errors.js';
import { signedIn, type RestContext } from '../context.js';
import { jobEntity, pipelineBasic, pipelineEntity, variableEntity } from '../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Bool, DateTime, Enum, Input, List, NamespacedRef, Obj, Optional, Pagination, PathId, routes, Str, Text } from '../input/route-kit.js';

const PIPELINE_SOURCES = ['push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event', 'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy', 'container_registry_push', 'duo_workflow', 'pipeline_execution_policy_schedule', 'unknown'] as const;

const ProjectPath = { id: NamespacedRef() };
const PipelinePath = Input({ ...ProjectPath, pipeline_id: PathId() });
const JobPath = Input({ ...ProjectPath, job_id: PathId() });

/** GitLab's `scope`/`scope[]` of the job lists: statuses (checked by jobScope, with GitLab's message). */
const JobScope = { scope: Optional(List(Str())) };

/** A variable's key: letters, digits and '_', at most 255 characters (GitLab's Ci::Variable). */
const VARIABLE_KEY = /^[a-zA-Z0-9_]{1,255}$/;
const KEY_RULE = "can contain only letters, digits and '_'.";

/** The statuses a job list asks for; anything else is GitLab's 400 "Scope contains invalid value(s)". */
export function jobScope(scope: string[] | undefined): Status[] | undefined {
  if (scope === undefined || scope.length === 0) return undefined;
  if (scope.some((value) => !(STATUSES as readonly string[]).includes(value))) throw new ValidationError('Scope contains invalid value(s)');
  return scope as Status[];
}

/** `variables[]` of POST /pipeline: `{key, value, variable_type}`, env_var by default. */
export function pipelineVariables(variables: { key?: string; value?: string; variable_type?: 'env_var' | 'file' }[] | undefined): PipelineVariable[] {
  return (variables ?? []).map((variable) => {
    if (variable.key === undefined || !VARIABLE_KEY.test(variable.key)) throw new ValidationError({ 'variables.key': [KEY_RULE] });
    return { key: variable.key, value: variable.value ?? '', variable_type: variable.variable_type ?? 'env_var' };
  });
}

/** `job_variables_attributes[]` of POST …/jobs/:id/play: `{key, value}`. */
export function jobVariables(variables: { key?: string; value?: string }[] | undefined): { key: string; value: string }[] | undefined {
  return variables?.map((variable) => {
    if (variable.key === undefined || !VARIABLE_KEY.test(variable.key)) throw new ValidationError({ 'job_variables_attributes.key': [KEY_RULE] });
    return { key: variable.key, value: variable.value ?? '' };
  });
}

/**
 * CI/CD pipelines and jobs (doc/api/pipelines.md, doc/api/jobs.md): lists with GitLab's filters
 * and pagination headers, a pipeline with `detailed_status`, creation from a ref, retry,
 * cancel, delete, a pipeline's variables; jobs and trigger jobs (bridges), cancel, retry, play.
 */
export function pipelineRoutes(app: FastifyInstance, ctx: RestContext<'jobArtifacts' | 'jobErase' | 'pipelines'>): void {
  const { pipelines } = ctx.services;
  const r = routes(app);

  r.get(
    '/projects/:id/pipelines',
    Input({
      ...ProjectPath,
      ...Pagination,
      scope: Optional(Enum(['running', 'pending', 'finished', 'branches', 'tags'] as const)),
      status: Optional(Enum(STATUSES)),
      source: Optional(Enum(PIPELINE_SOURCES)),
      ref: Optional(Text()),
      sha: Optional(Text()),
      username: Optional(Text()),
      name: Optional(Text()),
      yaml_errors: Optional(Bool()),
      updated_after: Optional(DateTime()),
      updated_before: Optional(DateTime()),
      order_by: Optional(Enum(['id', 'status', 'ref', 'updated_at', 'user_id'] as const, { default: 'id' })),
      sort: Optional(Enum(['asc', 'desc'] as const, { default: 'desc' })),
    }),
    async (params, request, reply) => {
      const page = parsePage(params);
      const result = await pipelines.list(request.actor, params.id, {
        scope: params.scope,
        status: params.status,
        source: params.source,
        ref: params.ref,
        sha: params.sha,
        username: params.username,
        name: params.name,
        yamlErrors: params.yaml_errors,
        updatedAfter: params.updated_after,
        updatedBefore: params.updated_before,
        orderBy: params.order_by ?? 'id',
        sort: params.sort ?? 'desc',
        limit: page.limit,
        offset: page.offset,
      });
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      return result.pipelines.map((pipeline) => pipelineBasic(pipeline, result.project, ctx.urls));
    },
  );

  r.get('/projects/:id/pipelines/latest', Input({ ...ProjectPath, ref: Optional(Text()) }), async (params, request) => {
    const result = await pipelines.latest(request.actor, params.id, params.ref);
    return pipelineEntity(result.pipeline, result.project, ctx.urls, result);
  });

  r.get('/projects/:id/pipelines/:pipeline_id', PipelinePath, async (params, request) => {
    const result = await pipelines.get(request.actor, params.id, params.pipeline_id);
    return pipelineEntity(result.pipeline, result.project, ctx.urls, result);
  });

  r.post(
    '/projects/:id/pipeline',
    Input({ ...ProjectPath, ref: Str(), variables: Optional(List(Obj({ key: Optional(Str()), value: Optional(Str()), variable_type: Optional(Enum(['env_var', 'file'] as const)) }))) }),
    async (params, request, reply) => {
      const result = await pipelines.create(signedIn(request), params.id, { ref: params.ref, variables: pipelineVariables(params.variables) });
      return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
    },
  );

  r.post('/projects/:id/pipelines/:pipeline_id/retry', PipelinePath, async (params, request, reply) => {
    const result = await pipelines.retry(signedIn(request), params.id, params.pipeline_id);
    return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
  });

  r.post('/projects/:id/pipelines/:pipeline_id/cancel', PipelinePath, async (params, request, reply) => {
    const result = await pipelines.cancel(signedIn(request), params.id, params.pipeline_id);
    return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
  });

  r.delete('/projects/:id/pipelines/:pipeline_id', PipelinePath, async (params, request, reply) => {
    await pipelines.remove(signedIn(request), params.id, params.pipeline_id);
    return reply.status(204).send();
  });

  r.get('/projects/:id/pipelines/:pipeline_id/variables', PipelinePath, async (params, request) => {
    const variables = await pipelines.variables(request.actor, params.id, params.pipeline_id);
    return variables.map(variableEntity);
  });

  for (const [suffix, type] of [['jobs', 'build'], ['bridges', 'bridge']] as const) {
    r.get(`/projects/:id/pipelines/:pipeline_id/${suffix}`, Input({ ...PipelinePath.properties, ...Pagination, ...JobScope, include_retried: Optional(Bool()) }), async (params, request, reply) => {
      const page = parsePage(params);
      const result = await pipelines.jobs(request.actor, params.id, {
        pipelineId: params.pipeline_id,
        type,
        scope: jobScope(params.scope),
        includeRetried: type === 'build' ? (params.include_retried ?? false) : false,
        limit: page.limit,
        offset: page.offset,
      });
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      const artifacts = await ctx.services.jobArtifacts.describe(result.jobs.map((job) => job.id));
      return result.jobs.map((job) => jobEntity(job, result.project, ctx.urls, result.facts, artifacts.get(job.id)));
    });
  }

  r.get('/projects/:id/jobs', Input({ ...ProjectPath, ...Pagination, ...JobScope }), async (params, request, reply) => {
    const page = parsePage(params);
    const result = await pipelines.jobs(request.actor, params.id, { type: 'build', scope: jobScope(params.scope), limit: page.limit, offset: page.offset });
    // GitLab lists a project's jobs without counting them: no X-Total / X-Total-Pages.
    const headers = paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total);
    delete headers['x-total'];
    delete headers['x-total-pages'];
    reply.headers(headers);
    return result.jobs.map((job) => jobEntity(job, result.project, ctx.urls, result.facts));
  });

  r.get('/projects/:id/jobs/:job_id', JobPath, async (params, request) => {
    const result = await pipelines.job(request.actor, params.id, params.job_id);
    const artifacts = await ctx.services.jobArtifacts.describe([result.job.id]);
    return jobEntity(result.job, result.project, ctx.urls, result.facts, artifacts.get(result.job.id));
  });

  // GitLab's "Keep" of a job's artifacts: they no longer expire (200 with the job).
  r.post('/projects/:id/jobs/:job_id/artifacts/keep', JobPath, async (params, request, reply) => {
    await ctx.services.jobArtifacts.keep(signedIn(request), params.id, params.job_id);
    const result = await pipelines.job(request.actor, params.id, params.job_id);
    const artifacts = await ctx.services.jobArtifacts.describe([result.job.id]);
    return reply.status(200).send(jobEntity(result.job, result.project, ctx.urls, result.facts, artifacts.get(result.job.id)));
  });

  // GitLab's erase: the finished job's log and artifacts go, the job stays with erased_at (201 with the job).
  r.post('/projects/:id/jobs/:job_id/erase', JobPath, async (params, request, reply) => {
    const result = await ctx.services.jobErase.erase(signedIn(request), params.id, params.job_id);
    return reply.status(201).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });

  r.post('/projects/:id/jobs/:job_id/cancel', JobPath, async (params, request, reply) => {
    const result = await pipelines.cancelJob(signedIn(request), params.id, params.job_id);
    return reply.status(201).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });

  r.post('/projects/:id/jobs/:job_id/retry', JobPath, async (params, request, reply) => {
    const result = await pipelines.retryJob(signedIn(request), params.id, params.job_id);
    return reply.status(201).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });

  // GitLab answers a play with 200, not 201.
  r.post(
    '/projects/:id/jobs/:job_id/play',
    Input({ ...JobPath.properties, job_variables_attributes: Optional(List(Obj({ key: Optional(Str()), value: Optional(Str()) }))) }),
    async (params, request, reply) => {
      const result = await pipelines.playJob(signedIn(request), params.id, params.job_id, jobVariables(params.job_variables_attributes));
      return reply.status(200).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
    },
  );
}
