import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../../platform/errors.js';
import { signedIn, type RestContext } from '../../context.js';
import { branchEntity, tagEntity } from '../../entities/branches.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Enum, Input, NamespacedRef, Optional, Pagination, routes, Str } from '../../input/route-kit.js';

/** Branches and tags: doc/api/branches.md, doc/api/tags.md (list). */
export function branchRoutes(app: FastifyInstance, ctx: RestContext<'branches'>): void {
  const { branches } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/repository/branches';

  const BranchList = Input({ id: NamespacedRef(), ...Pagination, search: Optional(Str()), regex: Optional(Str()), sort: Optional(Enum(['name_asc', 'updated_asc', 'updated_desc'] as const)) });
  r.get(base, BranchList, async (params, request, reply) => {
    if (params.regex !== undefined) throw new ValidationError('400 (Bad request) "regex" is not supported; use "search" with ^ and $');
    const page = parsePage(params);
    const result = await branches.list(request.actor, params.id, { search: params.search, sort: params.sort ?? 'name_asc', limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.branches.map((branch) => branchEntity(branch, result.project, ctx.urls));
  });

  // GitLab matches branch names with `/` whether or not the client encoded it (`requirements: { branch: /.+/ }`).
  const Named = Input({ id: NamespacedRef(), branch: Optional(Str()), '*': Optional(Str({ description: 'a branch name with /' })) });
  const branchName = (params: { branch?: string; '*'?: string }) => params.branch || params['*'] || '';

  for (const path of [`${base}/:branch`, `${base}/*`]) {
    r.get(path, Named, async (params, request) => {
      const { project, branch } = await branches.show(request.actor, params.id, branchName(params));
      return branchEntity(branch, project, ctx.urls);
    });
    r.delete(path, Named, async (params, request, reply) => {
      await branches.remove(signedIn(request), params.id, branchName(params));
      return reply.status(204).send();
    });
  }

  r.post(base, Input({ id: NamespacedRef(), branch: Str(), ref: Str() }), async ({ id, branch: name, ref }, request, reply) => {
    const { project, branch } = await branches.create(signedIn(request), id, { branch: name, ref });
    return reply.status(201).send(branchEntity(branch, project, ctx.urls));
  });

  const TagList = Input({
    id: NamespacedRef(),
    ...Pagination,
    search: Optional(Str()),
    order_by: Optional(Enum(['name', 'updated', 'version'] as const)),
    sort: Optional(Enum(['asc', 'desc'] as const)),
  });
  r.get('/projects/:id/repository/tags', TagList, async (params, request, reply) => {
    const page = parsePage(params);
    const result = await branches.listTags(request.actor, params.id, { search: params.search, orderBy: params.order_by ?? 'updated', sort: params.sort ?? 'desc', limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.tags.map((tag) => tagEntity(tag, result.project, ctx.urls));
  });
}
