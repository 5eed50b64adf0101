import type { FastifyInstance } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { optionalString } from '../../params.js';
import { listProjectsResponse, projectListFilter, renderProject } from '../projects.js';

/** Forks (doc/api/project_forks.md): the projects merge requests cross between. */
export function forkRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.post('/projects/:id/fork', async (request, reply) => {
    const params = input(request);
    const actor = signedIn(request);
    const fork = await ctx.services.forks.fork(actor, pathParam(request, 'id'), {
      namespaceId: optionalString(params, 'namespace_id') || optionalString(params, 'namespace') || undefined,
      namespacePath: optionalString(params, 'namespace_path') || undefined,
      name: optionalString(params, 'name') || undefined,
      path: optionalString(params, 'path') || undefined,
      description: optionalString(params, 'description'),
      visibility: optionalString(params, 'visibility') || undefined,
    });
    return reply.status(201).send(await renderProject(ctx, actor, fork));
  });

  app.get('/projects/:id/forks', async (request, reply) => {
    const source = await ctx.services.projects.find(request.actor, pathParam(request, 'id'));
    return listProjectsResponse(ctx, request, reply, { ...projectListFilter(input(request)), forkedFromId: source.id });
  });
}
