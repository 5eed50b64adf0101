import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { branchEntity, tagEntity } from '../../entities/branches.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { oneOf, optionalString, requiredString } from '../../params.js';

/** Branches and tags: doc/api/branches.md, doc/api/tags.md (list). */
export function branchRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { branches } = ctx.services;
  const base = '/projects/:id/repository/branches';

  app.get(base, async (request, reply) => {
    const params = input(request);
    if (params.regex !== undefined) throw new ValidationError('400 (Bad request) "regex" is not supported; use "search" with ^ and $');
    const page = parsePage(params);
    const result = await branches.list(request.actor, pathParam(request, 'id'), {
      search: optionalString(params, 'search'),
      sort: oneOf(params, 'sort', ['name_asc', 'updated_asc', 'updated_desc'] as const, 'name_asc'),
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.branches.map((branch) => branchEntity(branch, result.project, ctx.urls));
  });

  // GitLab matches branch names with `/` whether or not the client encoded it (`requirements: { branch: /.+/ }`).
  const branchName = (request: FastifyRequest) => pathParam(request, 'branch') || pathParam(request, '*');

  for (const path of [`${base}/:branch`, `${base}/*`]) {
    app.get(path, async (request) => {
      const { project, branch } = await branches.show(request.actor, pathParam(request, 'id'), branchName(request));
      return branchEntity(branch, project, ctx.urls);
    });
    app.delete(path, async (request, reply) => {
      await branches.remove(signedIn(request), pathParam(request, 'id'), branchName(request));
      return reply.status(204).send();
    });
  }

  app.post(base, async (request, reply) => {
    const params = input(request);
    const actor = signedIn(request);
    const { project, branch } = await branches.create(actor, pathParam(request, 'id'), { branch: requiredString(params, 'branch'), ref: requiredString(params, 'ref') });
    return reply.status(201).send(branchEntity(branch, project, ctx.urls));
  });

  app.get('/projects/:id/repository/tags', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const result = await branches.listTags(request.actor, pathParam(request, 'id'), {
      search: optionalString(params, 'search'),
      orderBy: oneOf(params, 'order_by', ['name', 'updated', 'version'] as const, 'updated'),
      sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc'),
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return result.tags.map((tag) => tagEntity(tag, result.project, ctx.urls));
  });
}
