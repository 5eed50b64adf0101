import type { FastifyInstance } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { group } from '../entities/namespaces.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { ValidationError } from '../../../platform/errors.js';
import { optionalBool, optionalInt, optionalString, optionalStringArray, type Params } from '../params.js';
import { listProjectsResponse, projectListFilter } from './projects.js';

/** GitLab's `skip_groups[]=1&skip_groups[]=2` (or `skip_groups=1,2`): group ids to leave out. */
export function skipGroups(params: Params): number[] | undefined {
  const values = optionalStringArray(params, 'skip_groups');
  if (values === undefined) return undefined;
  if (!values.every((value) => /^\d{1,15}$/.test(value))) throw new ValidationError('400 (Bad request) "skip_groups" is invalid');
  return values.map(Number);
}

export function groupRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { groups } = ctx.services;

  app.get('/groups', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const allAvailable = optionalBool(params, 'all_available');
    const topLevel = optionalBool(params, 'top_level_only');
    const result = await groups.list(request.actor, {
      search: optionalString(params, 'search'),
      // GitLab lists the caller's groups by default when signed in, all visible ones for anonymous callers.
      membership: request.actor.user !== null && !request.actor.user.is_admin && allAvailable !== true,
      minAccessLevel: optionalInt(params, 'min_access_level'),
      parentId: topLevel ? null : undefined,
      skipIds: skipGroups(params),
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  app.post('/groups', async (request, reply) => {
    const params = input(request);
    const created = await groups.create(signedIn(request), {
      name: optionalString(params, 'name'),
      path: optionalString(params, 'path'),
      parent_id: optionalInt(params, 'parent_id') ?? null,
      visibility: optionalString(params, 'visibility'),
      description: optionalString(params, 'description'),
    });
    return reply.status(201).send(group(created, ctx.urls));
  });

  app.get('/groups/:id', async (request) => group(await groups.find(request.actor, pathParam(request, 'id')), ctx.urls));

  app.put('/groups/:id', async (request) => {
    const params = input(request);
    const updated = await groups.update(signedIn(request), pathParam(request, 'id'), {
      name: optionalString(params, 'name'),
      path: optionalString(params, 'path'),
      description: optionalString(params, 'description'),
      visibility: optionalString(params, 'visibility'),
    });
    return group(updated, ctx.urls);
  });

  // GitLab's transfer: `group_id` names the new parent; without it the group becomes top-level. 201 with the group.
  app.post('/groups/:id/transfer', async (request, reply) => {
    const parent = input(request).group_id;
    const moved = await ctx.services.groupTransfer.transfer(signedIn(request), pathParam(request, 'id'), parent === undefined || parent === null ? undefined : String(parent));
    return reply.status(201).send(group(moved, ctx.urls));
  });

  app.delete('/groups/:id', async (request, reply) => {
    await groups.remove(signedIn(request), pathParam(request, 'id'));
    return reply.status(202).send({ message: '202 Accepted' });
  });

  app.get('/groups/:id/subgroups', async (request, reply) => {
    const parent = await groups.find(request.actor, pathParam(request, 'id'));
    const params = input(request);
    const page = parsePage(params);
    const result = await groups.list(request.actor, { parentId: parent.id, search: optionalString(params, 'search'), skipIds: skipGroups(params), limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  // GitLab: every visible group below this one, at any depth.
  app.get('/groups/:id/descendant_groups', async (request, reply) => {
    const parent = await groups.find(request.actor, pathParam(request, 'id'));
    const params = input(request);
    const page = parsePage(params);
    const result = await groups.list(request.actor, { descendantOf: parent.id, search: optionalString(params, 'search'), skipIds: skipGroups(params), limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  // GitLab: the project's ancestor groups the caller may see (no group sharing here, so `with_shared` adds none).
  app.get('/projects/:id/groups', async (request, reply) => {
    const project = await ctx.services.projects.find(request.actor, pathParam(request, 'id'));
    const params = input(request);
    const page = parsePage(params);
    const ids = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
    const result = await groups.list(request.actor, { ids, search: optionalString(params, 'search'), skipIds: skipGroups(params), limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  app.get('/groups/:id/projects', async (request, reply) => {
    const parent = await groups.find(request.actor, pathParam(request, 'id'));
    const params = input(request);
    const includeSubgroups = optionalBool(params, 'include_subgroups') === true;
    const namespaceIds = includeSubgroups ? await ctx.services.namespaces.subtreeIds(parent.id) : [parent.id];
    return listProjectsResponse(ctx, request, reply, { ...projectListFilter(params), namespaceIds });
  });
}
