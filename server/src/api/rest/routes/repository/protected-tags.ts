import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { protectedTagEntity } from '../../entities/protected-tags.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Input, Int, NamespacedRef, Optional, Pagination, routes, Str } from '../../input/route-kit.js';
import { AccessItems } from './access-items.js';

/** doc/api/protected_tags.md. gitbeaker sends POST parameters in the query string; the declared input merges them. */
export function protectedTagRoutes(app: FastifyInstance, ctx: RestContext<'tagProtection'>): void {
  const { tagProtection } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/protected_tags';
  const Named = { id: NamespacedRef(), name: Str({ description: 'tag name or wildcard' }) };

  r.get(base, Input({ id: NamespacedRef(), ...Pagination }), async (params, request, reply) => {
    const page = parsePage(params);
    const result = await tagProtection.list(request.actor, params.id, { limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.protections.map(protectedTagEntity);
  });

  r.get(`${base}/:name`, Input(Named), async (params, request) => protectedTagEntity(await tagProtection.show(request.actor, params.id, params.name)));

  r.post(base, Input({ ...Named, create_access_level: Optional(Int()), allowed_to_create: AccessItems() }), async (params, request, reply) => {
    const created = await tagProtection.create(signedIn(request), params.id, params.name, { create_access_level: params.create_access_level, allowed_to_create: params.allowed_to_create });
    return reply.status(201).send(protectedTagEntity(created));
  });

  r.delete(`${base}/:name`, Input(Named), async (params, request, reply) => {
    await tagProtection.remove(signedIn(request), params.id, params.name);
    return reply.status(204).send();
  });
}
