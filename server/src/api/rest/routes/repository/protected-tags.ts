import type { FastifyInstance } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { protectedTagEntity } from '../../entities/protected-tags.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalInt, requiredString } from '../../params.js';
import { accessItems } from './input.js';

/** doc/api/protected_tags.md. gitbeaker sends POST parameters in the query string; input() merges them. */
export function protectedTagRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { tagProtection } = ctx.services;
  const base = '/projects/:id/protected_tags';

  app.get(base, async (request, reply) => {
    const page = parsePage(input(request));
    const result = await tagProtection.list(request.actor, pathParam(request, 'id'), { limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.protections.map(protectedTagEntity);
  });

  app.get(`${base}/:name`, async (request) => protectedTagEntity(await tagProtection.show(request.actor, pathParam(request, 'id'), pathParam(request, 'name'))));

  app.post(base, async (request, reply) => {
    const params = input(request);
    const created = await tagProtection.create(signedIn(request), pathParam(request, 'id'), requiredString(params, 'name'), {
      create_access_level: optionalInt(params, 'create_access_level'),
      allowed_to_create: accessItems(params, 'allowed_to_create'),
    });
    return reply.status(201).send(protectedTagEntity(created));
  });

  app.delete(`${base}/:name`, async (request, reply) => {
    await tagProtection.remove(signedIn(request), pathParam(request, 'id'), pathParam(request, 'name'));
    return reply.status(204).send();
  });
}
