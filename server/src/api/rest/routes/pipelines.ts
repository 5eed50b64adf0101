import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STATUSES, type Status } from '../../../domains/pipelines/engine/status.js';
import type { PipelineVariable } from '../../../domains/pipelines/pipeline.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { jobEntity, pipelineBasic, pipelineEntity, variableEntity } from '../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { oneOf, optionalBool, optionalString, requiredString, type Params } from '../params.js';

const PIPELINE_SOURCES = ['push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event', 'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy', 'container_registry_push', 'duo_workflow', 'pipeline_execution_policy_schedule', 'unknown'] as const;

function numericParam(request: FastifyRequest, name: string): number {
  const raw = pathParam(request, name);
  if (!/^\d{1,18}$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}

function optionalDate(params: Params, key: string): Date | undefined {
  const value = optionalString(params, key);
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
  return date;
}

/** `scope`/`scope[]` as a string, an array or a hash of statuses; anything else is GitLab's 400. */
function jobScope(params: Params): Status[] | undefined {
  const raw = params.scope;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const values = Array.isArray(raw) ? raw.map(String) : typeof raw === 'object' ? Object.values(raw as Record<string, unknown>).map(String) : [String(raw)];
  if (values.some((value) => !(STATUSES as readonly string[]).includes(value))) throw new ValidationError('Scope contains invalid value(s)');
  return values as Status[];
}

/** `variables[]` of POST /pipeline: `{key, value, variable_type}`, env_var by default. */
function pipelineVariables(params: Params): PipelineVariable[] {
  const raw = params.variables;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as Record<string, unknown>) : null;
  if (!list) throw new ValidationError('400 (Bad request) "variables" is invalid');
  return list.map((item) => {
    const variable = (item ?? {}) as Record<string, unknown>;
    if (typeof variable.key !== 'string' || variable.key === '' || !/^[a-zA-Z0-9_]+$/.test(variable.key) || variable.key.length > 255) {
      throw new ValidationError({ 'variables.key': ['can contain only letters, digits and \'_\'.'] });
    }
    const type = variable.variable_type ?? 'env_var';
    if (type !== 'env_var' && type !== 'file') throw new ValidationError('400 (Bad request) "variables[variable_type]" does not have a valid value');
    return { key: variable.key, value: variable.value === undefined || variable.value === null ? '' : String(variable.value), variable_type: type };
  });
}

/** `job_variables_attributes[]` of POST …/jobs/:id/play: `{key, value}`. */
function jobVariables(params: Params): { key: string; value: string }[] | undefined {
  const raw = params.job_variables_attributes;
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as Record<string, unknown>) : null;
  if (!list) throw new ValidationError('400 (Bad request) "job_variables_attributes" is invalid');
  return list.map((item) => {
    const variable = (item ?? {}) as Record<string, unknown>;
    if (typeof variable.key !== 'string' || !/^[a-zA-Z0-9_]{1,255}$/.test(variable.key)) throw new ValidationError({ 'job_variables_attributes.key': ['can contain only letters, digits and \'_\'.'] });
    return { key: variable.key, value: variable.value === undefined || variable.value === null ? '' : String(variable.value) };
  });
}

/**
 * CI/CD pipelines and jobs (doc/api/pipelines.md, doc/api/jobs.md): lists with GitLab's filters
 * and pagination headers, a pipeline with `detailed_status`, creation from a ref, retry,
 * cancel, delete, a pipeline's variables; jobs and trigger jobs (bridges), cancel, retry, play.
 */
export function pipelineRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { pipelines } = ctx.services;

  app.get('/projects/:id/pipelines', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const scope = optionalString(params, 'scope') ? oneOf(params, 'scope', ['running', 'pending', 'finished', 'branches', 'tags'] as const, 'running') : undefined;
    const status = optionalString(params, 'status') ? oneOf(params, 'status', STATUSES, 'created') : undefined;
    const source = optionalString(params, 'source') ? oneOf(params, 'source', PIPELINE_SOURCES, 'push') : undefined;
    const result = await pipelines.list(request.actor, pathParam(request, 'id'), {
      scope,
      status,
      source,
      ref: optionalString(params, 'ref') || undefined,
      sha: optionalString(params, 'sha') || undefined,
      username: optionalString(params, 'username') || undefined,
      name: optionalString(params, 'name') || undefined,
      yamlErrors: optionalBool(params, 'yaml_errors'),
      updatedAfter: optionalDate(params, 'updated_after'),
      updatedBefore: optionalDate(params, 'updated_before'),
      orderBy: oneOf(params, 'order_by', ['id', 'status', 'ref', 'updated_at', 'user_id'] as const, 'id'),
      sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc'),
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.pipelines.map((pipeline) => pipelineBasic(pipeline, result.project, ctx.urls));
  });

  app.get('/projects/:id/pipelines/latest', async (request) => {
    const result = await pipelines.latest(request.actor, pathParam(request, 'id'), optionalString(input(request), 'ref') || undefined);
    return pipelineEntity(result.pipeline, result.project, ctx.urls, result);
  });

  app.get('/projects/:id/pipelines/:pipeline_id', async (request) => {
    const result = await pipelines.get(request.actor, pathParam(request, 'id'), numericParam(request, 'pipeline_id'));
    return pipelineEntity(result.pipeline, result.project, ctx.urls, result);
  });

  app.post('/projects/:id/pipeline', async (request, reply) => {
    const params = input(request);
    const result = await pipelines.create(signedIn(request), pathParam(request, 'id'), { ref: requiredString(params, 'ref'), variables: pipelineVariables(params) });
    return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/retry', async (request, reply) => {
    const result = await pipelines.retry(signedIn(request), pathParam(request, 'id'), numericParam(request, 'pipeline_id'));
    return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/cancel', async (request, reply) => {
    const result = await pipelines.cancel(signedIn(request), pathParam(request, 'id'), numericParam(request, 'pipeline_id'));
    return reply.status(201).send(pipelineEntity(result.pipeline, result.project, ctx.urls, result));
  });

  app.delete('/projects/:id/pipelines/:pipeline_id', async (request, reply) => {
    await pipelines.remove(signedIn(request), pathParam(request, 'id'), numericParam(request, 'pipeline_id'));
    return reply.status(204).send();
  });

  app.get('/projects/:id/pipelines/:pipeline_id/variables', async (request) => {
    const variables = await pipelines.variables(request.actor, pathParam(request, 'id'), numericParam(request, 'pipeline_id'));
    return variables.map(variableEntity);
  });

  for (const [suffix, type] of [['jobs', 'build'], ['bridges', 'bridge']] as const) {
    app.get(`/projects/:id/pipelines/:pipeline_id/${suffix}`, async (request, reply) => {
      const params = input(request);
      const page = parsePage(params);
      const result = await pipelines.jobs(request.actor, pathParam(request, 'id'), {
        pipelineId: numericParam(request, 'pipeline_id'),
        type,
        scope: jobScope(params),
        includeRetried: type === 'build' ? (optionalBool(params, 'include_retried') ?? false) : false,
        limit: page.limit,
        offset: page.offset,
      });
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      return result.jobs.map((job) => jobEntity(job, result.project, ctx.urls, result.facts));
    });
  }

  app.get('/projects/:id/jobs', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const result = await pipelines.jobs(request.actor, pathParam(request, 'id'), { type: 'build', scope: jobScope(params), limit: page.limit, offset: page.offset });
    // GitLab lists a project's jobs without counting them: no X-Total / X-Total-Pages.
    const headers = paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total);
    delete headers['x-total'];
    delete headers['x-total-pages'];
    reply.headers(headers);
    return result.jobs.map((job) => jobEntity(job, result.project, ctx.urls, result.facts));
  });

  app.get('/projects/:id/jobs/:job_id', async (request) => {
    const result = await pipelines.job(request.actor, pathParam(request, 'id'), numericParam(request, 'job_id'));
    return jobEntity(result.job, result.project, ctx.urls, result.facts);
  });

  app.post('/projects/:id/jobs/:job_id/cancel', async (request, reply) => {
    const result = await pipelines.cancelJob(signedIn(request), pathParam(request, 'id'), numericParam(request, 'job_id'));
    return reply.status(201).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });

  app.post('/projects/:id/jobs/:job_id/retry', async (request, reply) => {
    const result = await pipelines.retryJob(signedIn(request), pathParam(request, 'id'), numericParam(request, 'job_id'));
    return reply.status(201).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });

  // GitLab answers a play with 200, not 201.
  app.post('/projects/:id/jobs/:job_id/play', async (request, reply) => {
    const result = await pipelines.playJob(signedIn(request), pathParam(request, 'id'), numericParam(request, 'job_id'), jobVariables(input(request)));
    return reply.status(200).send(jobEntity(result.job, result.project, ctx.urls, result.facts));
  });
}
