import type { FastifyInstance } from 'fastify';
import { DEPLOYMENT_STATUSES, ENVIRONMENT_STATES, TIERS } from '../../../domains/environments/environment-rules.js';
import { ENVIRONMENT_MESSAGES } from '../../../domains/environments/environments.service.js';
import { ValidationError } from '../../../platform/errors.js';
import { signedIn, type RestContext } from '../context.js';
import { deploymentEntity, environmentBasic, environmentEntity } from '../entities/environments.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Any, Bool, DateTime, Enum, Input, Int, NamespacedRef, Optional, Pagination, PathId, routes, Str, Text } from '../input/route-kit.js';

const DAY = 24 * 3600 * 1000;

const ProjectPath = { id: NamespacedRef() };
const EnvironmentPath = { ...ProjectPath, environment_id: PathId() };
const DeploymentPath = { ...ProjectPath, deployment_id: PathId() };
const WRITABLE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;

/** GitLab accepts only http(s) external urls; an empty one removes it. */
function externalUrl(value: string | undefined): string | null | undefined {
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
export function environmentRoutes(app: FastifyInstance, ctx: RestContext<'environments'>): void {
  const { environments } = ctx.services;
  const r = routes(app);

  const ListInput = Input({ ...ProjectPath, ...Pagination, name: Optional(Text()), search: Optional(Text()), states: Optional(Enum(ENVIRONMENT_STATES)) });
  r.get('/projects/:id/environments', ListInput, async (params, request, reply) => {
    const page = parsePage(params);
    const { name, search, states } = params;
    if (name !== undefined && search !== undefined) throw new ValidationError('name, search are mutually exclusive');
    if (search !== undefined && search.length < 3) throw new ValidationError('Search query is less than 3 characters');
    const result = await environments.list(request.actor, params.id, { name, search, states, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.environments.map((environment) => environmentEntity(environment, result.project, ctx.urls, result.facts));
  });

  r.get('/projects/:id/environments/:environment_id', Input(EnvironmentPath), async (params, request) => {
    const result = await environments.get(request.actor, params.id, params.environment_id);
    return environmentEntity(result.environment, result.project, ctx.urls, result.facts);
  });

  const CreateInput = Input({ ...ProjectPath, name: Str(), external_url: Optional(Str({ description: 'an http(s) URL' })), tier: Optional(Enum(TIERS)) });
  r.post('/projects/:id/environments', CreateInput, async (params, request, reply) => {
    const result = await environments.create(signedIn(request), params.id, { name: params.name, externalUrl: externalUrl(params.external_url), tier: params.tier });
    return reply.status(201).send(environmentEntity(result.environment, result.project, ctx.urls, result.facts));
  });

  // An environment is not renamed: `name` is declared only to be refused, as GitLab does.
  const UpdateInput = Input({ ...EnvironmentPath, name: Optional(Any({ description: 'not allowed' })), external_url: Optional(Str({ description: 'an http(s) URL' })), tier: Optional(Enum(TIERS)) });
  r.put('/projects/:id/environments/:environment_id', UpdateInput, async (params, request) => {
    if (params.name !== undefined) throw new ValidationError('400 (Bad request) "name" is not allowed');
    const result = await environments.update(signedIn(request), params.id, params.environment_id, { externalUrl: externalUrl(params.external_url), tier: params.tier });
    return environmentEntity(result.environment, result.project, ctx.urls, result.facts);
  });

  r.delete('/projects/:id/environments/:environment_id', Input(EnvironmentPath), async (params, request, reply) => {
    await environments.remove(signedIn(request), params.id, params.environment_id);
    return reply.status(204).send();
  });

  // GitLab answers a stop with 200 and the environment.
  r.post('/projects/:id/environments/:environment_id/stop', Input({ ...EnvironmentPath, force: Optional(Bool()) }), async (params, request, reply) => {
    const result = await environments.stopOne(signedIn(request), params.id, params.environment_id, params.force ?? false);
    return reply.status(200).send(environmentEntity(result.environment, result.project, ctx.urls, result.facts));
  });

  r.post('/projects/:id/environments/stop_stale', Input({ ...ProjectPath, before: DateTime() }), async (params, request, reply) => {
    const { before } = params;
    // GitLab: between ten years and one week ago
    const at = Date.now();
    if (before.getTime() > at - 7 * DAY || before.getTime() < at - 3650 * DAY) throw new ValidationError('400 (Bad request) "before" must be a date before 1 week ago and after 10 years ago');
    await environments.stopStale(signedIn(request), params.id, before);
    return reply.status(200).send({ message: ENVIRONMENT_MESSAGES.staleStopped });
  });

  const ReviewAppsInput = Input({ ...ProjectPath, before: Optional(DateTime()), limit: Optional(Int({ description: '1 to 1000' })), dry_run: Optional(Bool()) });
  r.delete('/projects/:id/environments/review_apps', ReviewAppsInput, async (params, request, reply) => {
    const limit = params.limit ?? 100;
    if (limit < 1 || limit > 1000) throw new ValidationError('400 (Bad request) "limit" does not have a valid value');
    const dryRun = params.dry_run ?? true;
    const before = params.before ?? new Date(Date.now() - 30 * DAY);
    const result = await environments.removeReviewApps(signedIn(request), params.id, { before, limit, dryRun });
    return reply.status(dryRun ? 200 : 202).send({ scheduled_entries: result.environments.map(environmentBasic), unprocessable_entries: [] });
  });

  const DeploymentsInput = Input({
    ...ProjectPath,
    ...Pagination,
    environment: Optional(Text()),
    status: Optional(Enum(DEPLOYMENT_STATUSES)),
    updated_after: Optional(DateTime()),
    updated_before: Optional(DateTime()),
    order_by: Optional(Enum(['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const, { default: 'id' })),
    sort: Optional(Enum(['asc', 'desc'] as const, { default: 'asc' })),
  });
  r.get('/projects/:id/deployments', DeploymentsInput, async (params, request, reply) => {
    const page = parsePage(params);
    const result = await environments.deployments(request.actor, params.id, {
      environment: params.environment,
      status: params.status,
      updatedAfter: params.updated_after,
      updatedBefore: params.updated_before,
      orderBy: params.order_by ?? 'id',
      sort: params.sort ?? 'asc',
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.deployments.map((deployment) => deploymentEntity(deployment, result.project, ctx.urls, result.facts));
  });

  r.get('/projects/:id/deployments/:deployment_id', Input(DeploymentPath), async (params, request) => {
    const result = await environments.deployment(request.actor, params.id, params.deployment_id);
    return deploymentEntity(result.deployment, result.project, ctx.urls, result.facts);
  });

  const CreateDeploymentInput = Input({ ...ProjectPath, environment: Str(), sha: Str(), ref: Str(), tag: Bool(), status: Enum(WRITABLE_STATUSES) });
  r.post('/projects/:id/deployments', CreateDeploymentInput, async ({ id, environment, sha, ref, tag, status }, request, reply) => {
    const result = await environments.createDeployment(signedIn(request), id, { environment, sha, ref, tag, status });
    return reply.status(201).send(deploymentEntity(result.deployment, result.project, ctx.urls, result.facts));
  });

  r.put('/projects/:id/deployments/:deployment_id', Input({ ...DeploymentPath, status: Enum(WRITABLE_STATUSES) }), async (params, request) => {
    const result = await environments.updateDeployment(signedIn(request), params.id, params.deployment_id, params.status);
    return deploymentEntity(result.deployment, result.project, ctx.urls, result.facts);
  });

  // Merge requests a deployment shipped are not recorded yet: the list is empty, as for a deployment of no merge request.
  r.get('/projects/:id/deployments/:deployment_id/merge_requests', Input({ ...DeploymentPath, ...Pagination }), async (params, request, reply) => {
    await environments.deployment(request.actor, params.id, params.deployment_id);
    const page = parsePage(params);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, 0));
    return [];
  });
}
