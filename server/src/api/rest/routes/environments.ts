import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEPLOYMENT_STATUSES, ENVIRONMENT_STATES, TIERS } from '../../../domains/environments/environment-rules.js';
import { ENVIRONMENT_MESSAGES } from '../../../domains/environments/environments.service.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { deploymentEntity, environmentBasic, environmentEntity } from '../entities/environments.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { oneOf, optionalBool, optionalInt, optionalString, requiredString, type Params } from '../params.js';

const DAY = 24 * 3600 * 1000;

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

/** GitLab accepts only http(s) external urls. */
function externalUrl(params: Params): string | null | undefined {
  const value = optionalString(params, 'external_url');
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (!/^https?:\/\/[^\s]+$/i.test(value)) throw ValidationError.field('external_url', 'is blocked: Only allowed schemes are http, https');
  return value;
}

/**
 * Environments and deployments (doc/api/environments.md, doc/api/deployments.md): lists with
 * GitLab's filters and pagination headers, an environment's create, update, stop and delete,
 * stop_stale, the review apps clean-up, deployments read and written from outside CI.
 */
export function environmentRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { environments } = ctx.services;

  app.get('/projects/:id/environments', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const name = optionalString(params, 'name') || undefined;
    const search = optionalString(params, 'search') || undefined;
    if (name !== undefined && search !== undefined) throw new ValidationError('name, search are mutually exclusive');
    if (search !== undefined && search.length < 3) throw new ValidationError('Search query is less than 3 characters');
    const states = optionalString(params, 'states') ? oneOf(params, 'states', ENVIRONMENT_STATES, 'available') : undefined;
    const result = await environments.list(request.actor, pathParam(request, 'id'), { name, search, states, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.environments.map((environment) => environmentEntity(environment, result.project, ctx.urls, result.facts));
  });

  app.get('/projects/:id/environments/:environment_id', async (request) => {
    const result = await environments.get(request.actor, pathParam(request, 'id'), numericParam(request, 'environment_id'));
    return environmentEntity(result.environment, result.project, ctx.urls, result.facts);
  });

  app.post('/projects/:id/environments', async (request, reply) => {
    const params = input(request);
    const tier = optionalString(params, 'tier') ? oneOf(params, 'tier', TIERS, 'other') : undefined;
    const result = await environments.create(signedIn(request), pathParam(request, 'id'), { name: requiredString(params, 'name'), externalUrl: externalUrl(params), tier });
    return reply.status(201).send(environmentEntity(result.environment, result.project, ctx.urls, result.facts));
  });

  app.put('/projects/:id/environments/:environment_id', async (request) => {
    const params = input(request);
    if (params.name !== undefined) throw new ValidationError('400 (Bad request) "name" is not allowed');
    const tier = optionalString(params, 'tier') ? oneOf(params, 'tier', TIERS, 'other') : undefined;
    const result = await environments.update(signedIn(request), pathParam(request, 'id'), numericParam(request, 'environment_id'), { externalUrl: externalUrl(params), tier });
    return environmentEntity(result.environment, result.project, ctx.urls, result.facts);
  });

  app.delete('/projects/:id/environments/:environment_id', async (request, reply) => {
    await environments.remove(signedIn(request), pathParam(request, 'id'), numericParam(request, 'environment_id'));
    return reply.status(204).send();
  });

  // GitLab answers a stop with 200 and the environment.
  app.post('/projects/:id/environments/:environment_id/stop', async (request, reply) => {
    const result = await environments.stopOne(signedIn(request), pathParam(request, 'id'), numericParam(request, 'environment_id'), optionalBool(input(request), 'force') ?? false);
    return reply.status(200).send(environmentEntity(result.environment, result.project, ctx.urls, result.facts));
  });

  app.post('/projects/:id/environments/stop_stale', async (request, reply) => {
    const params = input(request);
    const before = optionalDate(params, 'before');
    if (!before) throw ValidationError.missing('before');
    // GitLab: between ten years and one week ago
    const at = Date.now();
    if (before.getTime() > at - 7 * DAY || before.getTime() < at - 3650 * DAY) throw new ValidationError('400 (Bad request) "before" must be a date before 1 week ago and after 10 years ago');
    await environments.stopStale(signedIn(request), pathParam(request, 'id'), before);
    return reply.status(200).send({ message: ENVIRONMENT_MESSAGES.staleStopped });
  });

  app.delete('/projects/:id/environments/review_apps', async (request, reply) => {
    const params = input(request);
    const limit = optionalInt(params, 'limit') ?? 100;
    if (limit < 1 || limit > 1000) throw new ValidationError('400 (Bad request) "limit" does not have a valid value');
    const dryRun = optionalBool(params, 'dry_run') ?? true;
    const before = optionalDate(params, 'before') ?? new Date(Date.now() - 30 * DAY);
    const result = await environments.removeReviewApps(signedIn(request), pathParam(request, 'id'), { before, limit, dryRun });
    return reply.status(dryRun ? 200 : 202).send({ scheduled_entries: result.environments.map(environmentBasic), unprocessable_entries: [] });
  });

  app.get('/projects/:id/deployments', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const status = optionalString(params, 'status') ? oneOf(params, 'status', DEPLOYMENT_STATUSES, 'created') : undefined;
    const result = await environments.deployments(request.actor, pathParam(request, 'id'), {
      environment: optionalString(params, 'environment') || undefined,
      status,
      updatedAfter: optionalDate(params, 'updated_after'),
      updatedBefore: optionalDate(params, 'updated_before'),
      orderBy: oneOf(params, 'order_by', ['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const, 'id'),
      sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'asc'),
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.deployments.map((deployment) => deploymentEntity(deployment, result.project, ctx.urls, result.facts));
  });

  app.get('/projects/:id/deployments/:deployment_id', async (request) => {
    const result = await environments.deployment(request.actor, pathParam(request, 'id'), numericParam(request, 'deployment_id'));
    return deploymentEntity(result.deployment, result.project, ctx.urls, result.facts);
  });

  const WRITABLE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;

  app.post('/projects/:id/deployments', async (request, reply) => {
    const params = input(request);
    const environment = requiredString(params, 'environment');
    const sha = requiredString(params, 'sha');
    const ref = requiredString(params, 'ref');
    const tag = optionalBool(params, 'tag');
    if (tag === undefined) throw ValidationError.missing('tag');
    const status = oneOf(params, 'status', WRITABLE_STATUSES, 'running');
    if (!optionalString(params, 'status')) throw ValidationError.missing('status');
    const result = await environments.createDeployment(signedIn(request), pathParam(request, 'id'), { environment, sha, ref, tag, status });
    return reply.status(201).send(deploymentEntity(result.deployment, result.project, ctx.urls, result.facts));
  });

  app.put('/projects/:id/deployments/:deployment_id', async (request) => {
    const params = input(request);
    if (!optionalString(params, 'status')) throw ValidationError.missing('status');
    const status = oneOf(params, 'status', WRITABLE_STATUSES, 'running');
    const result = await environments.updateDeployment(signedIn(request), pathParam(request, 'id'), numericParam(request, 'deployment_id'), status);
    return deploymentEntity(result.deployment, result.project, ctx.urls, result.facts);
  });

  // Merge requests a deployment shipped are not recorded yet: the list is empty, as for a deployment of no merge request.
  app.get('/projects/:id/deployments/:deployment_id/merge_requests', async (request, reply) => {
    await environments.deployment(request.actor, pathParam(request, 'id'), numericParam(request, 'deployment_id'));
    const page = parsePage(input(request));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, 0));
    return [];
  });
}
