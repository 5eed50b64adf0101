import type { FastifyInstance } from 'fastify';
import { PROCESS_MODES } from '../../../domains/pipelines/resource-groups.repository.js';
import { signedIn, type RestContext } from '../context.js';
import { jobBasicEntity, resourceGroupEntity } from '../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Enum, Input, NamespacedRef, Optional, Pagination, routes, Str } from '../input/route-kit.js';

const GroupPath = { id: NamespacedRef(), key: Str() };

/**
 * Resource groups (doc/api/resource_groups.md): list, one by key, its current job and upcoming
 * jobs, and `PUT` of its `process_mode` (unordered, oldest_first, newest_first).
 */
export function resourceGroupRoutes(app: FastifyInstance, ctx: RestContext<'resourceGroups'>): void {
  const { resourceGroups } = ctx.services;
  const r = routes(app);

  r.get('/projects/:id/resource_groups', Input({ id: NamespacedRef(), ...Pagination }), async (params, request, reply) => {
    const page = parsePage(params);
    const result = await resourceGroups.list(signedIn(request), params.id, page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.groups.map(resourceGroupEntity);
  });

  r.get('/projects/:id/resource_groups/:key', Input(GroupPath), async (params, request) => resourceGroupEntity(await resourceGroups.get(signedIn(request), params.id, params.key)));

  r.get('/projects/:id/resource_groups/:key/current_job', Input(GroupPath), async (params, request) => {
    const result = await resourceGroups.currentJob(signedIn(request), params.id, params.key);
    return result.job ? jobBasicEntity(result.job, result.project, ctx.urls, result.facts) : null;
  });

  r.get('/projects/:id/resource_groups/:key/upcoming_jobs', Input({ ...GroupPath, ...Pagination }), async (params, request, reply) => {
    const page = parsePage(params);
    const result = await resourceGroups.upcomingJobs(signedIn(request), params.id, params.key);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.jobs.length));
    return result.jobs.slice(page.offset, page.offset + page.limit).map((job) => jobBasicEntity(job, result.project, ctx.urls, result.facts));
  });

  r.put('/projects/:id/resource_groups/:key', Input({ ...GroupPath, process_mode: Optional(Enum(PROCESS_MODES)) }), async (params, request) =>
    resourceGroupEntity(await resourceGroups.update(signedIn(request), params.id, params.key, { processMode: params.process_mode })),
  );
}
