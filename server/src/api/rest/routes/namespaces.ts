import { AccessLevel } from '@tributary/contracts';
import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { namespaceBasic } from '../entities/namespaces.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Input, Int, NamespacedRef, Optional, Pagination, Ref, routes, Str } from '../input/route-kit.js';
import { namespaceExistsAnswer } from '../../../domains/namespaces/namespace-exists.js';

/** GET /namespaces: where the caller may create projects (their own namespace and groups). */
export function namespaceRoutes(app: FastifyInstance, ctx: RestContext<'groups' | 'namespaces'>): void {
  const r = routes(app);
  r.get('/namespaces', Input({ ...Pagination, search: Optional(Str()) }), async (params, request, reply) => {
    const actor = signedIn(request);
    const page = parsePage(params);
    const search = params.search;
    const own = await ctx.services.namespaces.findUserNamespace(actor.user.id);
    const groups = await ctx.services.groups.list(actor, { membership: !actor.user.is_admin, minAccessLevel: AccessLevel.Developer, search, limit: page.limit, offset: page.offset });
    const items = page.page === 1 && own && (!search || own.full_path.includes(search)) ? [own, ...groups.namespaces] : groups.namespaces;
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, groups.total + (own ? 1 : 0)));
    return items.map((ns) => namespaceBasic(ns, ctx.urls));
  });

  // GitLab: whether a namespace path is taken at the top level or under `parent_id`, with a free suggestion.
  r.get('/namespaces/:id/exists', Input({ id: Ref({ description: 'the path to look for' }), parent_id: Optional(Int()) }), async ({ id: path, parent_id: parentId }, request) => {
    signedIn(request);
    const parent = parentId === undefined ? null : await ctx.services.namespaces.findById(parentId);
    if (parentId !== undefined && !parent) return { exists: false, suggests: [] };
    const prefix = parent ? `${parent.full_path}/` : '';
    return namespaceExistsAnswer(path, async (candidate) => (await ctx.services.namespaces.findByFullPath(`${prefix}${candidate}`)) !== undefined);
  });

  r.get('/namespaces/:id', Input({ id: NamespacedRef() }), async ({ id }, request) => namespaceBasic(await ctx.services.groups.findNamespace(signedIn(request), id), ctx.urls));
}
