import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { protectedBranchEntity } from '../../entities/protected-branches.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Input, NamespacedRef, Optional, Pagination, routes, Str } from '../../input/route-kit.js';
import { ProtectionFields } from './access-items.js';

/** doc/api/protected_branches.md. gitbeaker sends POST parameters in the query string; the declared input merges them. */
export function protectedBranchRoutes(app: FastifyInstance, ctx: RestContext<'branchProtection'>): void {
  const { branchProtection } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/protected_branches';
  const Named = { id: NamespacedRef(), name: Str({ description: 'branch name or wildcard' }) };

  r.get(base, Input({ id: NamespacedRef(), ...Pagination, search: Optional(Str()) }), async (params, request, reply) => {
    const page = parsePage(params);
    const result = await branchProtection.list(request.actor, params.id, { search: params.search, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.protections.map(protectedBranchEntity);
  });

  r.get(`${base}/:name`, Input(Named), async (params, request) => protectedBranchEntity(await branchProtection.show(request.actor, params.id, params.name)));

  r.post(base, Input({ ...Named, ...ProtectionFields }), async ({ id, name, ...protection }, request, reply) => {
    const created = await branchProtection.create(signedIn(request), id, name, protection);
    return reply.status(201).send(protectedBranchEntity(created));
  });

  r.patch(`${base}/:name`, Input({ ...Named, ...ProtectionFields }), async ({ id, name, ...protection }, request) => {
    const updated = await branchProtection.update(signedIn(request), id, name, protection);
    return protectedBranchEntity(updated);
  });

  r.delete(`${base}/:name`, Input(Named), async (params, request, reply) => {
    await branchProtection.remove(signedIn(request), params.id, params.name);
    return reply.status(204).send();
  });
}
