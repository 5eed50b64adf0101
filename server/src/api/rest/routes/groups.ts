import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { group } from '../entities/namespaces.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Bool, Id, Input, Int, List, NamespacedRef, Optional, Pagination, routes, Str } from '../input/route-kit.js';
import { listProjectsResponse, ProjectList, projectListFilter } from './projects.js';

const GroupId = NamespacedRef();

/** GitLab's `skip_groups[]=1&skip_groups[]=2` (or `skip_groups=1,2`): group ids to leave out. */
const GroupListing = { ...Pagination, search: Optional(Str()), skip_groups: Optional(List(Id())) };

export function groupRoutes(app: FastifyInstance, ctx: RestContext<'groupTransfer' | 'groups' | 'namespaces' | 'projectAvatars' | 'projectTransfer' | 'projects'>): void {
  const { groups } = ctx.services;
  const r = routes(app);

  r.get(
    '/groups',
    Input({ ...GroupListing, all_available: Optional(Bool()), top_level_only: Optional(Bool()), min_access_level: Optional(Int()) }),
    async (params, request, reply) => {
      const page = parsePage(params);
      const result = await groups.list(request.actor, {
        search: params.search,
        // GitLab lists the caller's groups by default when signed in, all visible ones for anonymous callers.
        membership: request.actor.user !== null && !request.actor.user.is_admin && params.all_available !== true,
        minAccessLevel: params.min_access_level,
        parentId: params.top_level_only ? null : undefined,
        skipIds: params.skip_groups,
        limit: page.limit,
        offset: page.offset,
      });
      reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
      return result.namespaces.map((ns) => group(ns, ctx.urls));
    },
  );

  r.post(
    '/groups',
    Input({ name: Optional(Str()), path: Optional(Str()), parent_id: Optional(Int()), visibility: Optional(Str()), description: Optional(Str()) }),
    async ({ parent_id, ...params }, request, reply) => {
      const created = await groups.create(signedIn(request), { ...params, parent_id: parent_id ?? null });
      return reply.status(201).send(group(created, ctx.urls));
    },
  );

  r.get('/groups/:id', Input({ id: GroupId }), async ({ id }, request) => group(await groups.find(request.actor, id), ctx.urls));

  r.put('/groups/:id', Input({ id: GroupId, name: Optional(Str()), path: Optional(Str()), description: Optional(Str()), visibility: Optional(Str()) }), async ({ id, ...changes }, request) =>
    group(await groups.update(signedIn(request), id, changes), ctx.urls),
  );

  // GitLab's transfer: `group_id` names the new parent; without it the group becomes top-level. 201 with the group.
  r.post('/groups/:id/transfer', Input({ id: GroupId, group_id: Optional(Str({ description: 'ID or full path of the new parent' })) }), async ({ id, group_id }, request, reply) => {
    const moved = await ctx.services.groupTransfer.transfer(signedIn(request), id, group_id);
    return reply.status(201).send(group(moved, ctx.urls));
  });

  r.delete('/groups/:id', Input({ id: GroupId }), async ({ id }, request, reply) => {
    await groups.remove(signedIn(request), id);
    return reply.status(202).send({ message: '202 Accepted' });
  });

  r.get('/groups/:id/subgroups', Input({ id: GroupId, ...GroupListing }), async (params, request, reply) => {
    const parent = await groups.find(request.actor, params.id);
    const page = parsePage(params);
    const result = await groups.list(request.actor, { parentId: parent.id, search: params.search, skipIds: params.skip_groups, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  // GitLab: every visible group below this one, at any depth.
  r.get('/groups/:id/descendant_groups', Input({ id: GroupId, ...GroupListing }), async (params, request, reply) => {
    const parent = await groups.find(request.actor, params.id);
    const page = parsePage(params);
    const result = await groups.list(request.actor, { descendantOf: parent.id, search: params.search, skipIds: params.skip_groups, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  // GitLab: the project's ancestor groups the caller may see (no group sharing here, so `with_shared` adds none).
  r.get('/projects/:id/groups', Input({ id: NamespacedRef(), ...GroupListing, with_shared: Optional(Bool()) }), async (params, request, reply) => {
    const project = await ctx.services.projects.find(request.actor, params.id);
    const page = parsePage(params);
    const ids = project.namespace_kind === 'group' ? project.namespace_traversal_ids : [];
    const result = await groups.list(request.actor, { ids, search: params.search, skipIds: params.skip_groups, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.namespaces.map((ns) => group(ns, ctx.urls));
  });

  r.get('/groups/:id/projects', Input({ ...ProjectList.properties, id: GroupId, include_subgroups: Optional(Bool()) }), async (params, request, reply) => {
    const parent = await groups.find(request.actor, params.id);
    const namespaceIds = params.include_subgroups === true ? await ctx.services.namespaces.subtreeIds(parent.id) : [parent.id];
    return listProjectsResponse(ctx, request, reply, params, { ...projectListFilter(params), namespaceIds });
  });
}
