import type { FastifyInstance } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { protectedBranchEntity } from '../../entities/protected-branches.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalString, requiredString } from '../../params.js';
import { protectionInput } from './input.js';

/** doc/api/protected_branches.md. gitbeaker sends POST parameters in the query string; input() merges them. */
export function protectedBranchRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { branchProtection } = ctx.services;
  const base = '/projects/:id/protected_branches';

  app.get(base, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const result = await branchProtection.list(request.actor, pathParam(request, 'id'), { search: optionalString(params, 'search'), limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.protections.map(protectedBranchEntity);
  });

  app.get(`${base}/:name`, async (request) => protectedBranchEntity(await branchProtection.show(request.actor, pathParam(request, 'id'), pathParam(request, 'name'))));

  app.post(base, async (request, reply) => {
    const params = input(request);
    const created = await branchProtection.create(signedIn(request), pathParam(request, 'id'), requiredString(params, 'name'), protectionInput(params));
    return reply.status(201).send(protectedBranchEntity(created));
  });

  app.patch(`${base}/:name`, async (request) => {
    const updated = await branchProtection.update(signedIn(request), pathParam(request, 'id'), pathParam(request, 'name'), protectionInput(input(request)));
    return protectedBranchEntity(updated);
  });

  app.delete(`${base}/:name`, async (request, reply) => {
    await branchProtection.remove(signedIn(request), pathParam(request, 'id'), pathParam(request, 'name'));
    return reply.status(204).send();
  });
}
