import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { Input, NamespacedRef, Optional, routes, Str, Text } from '../../input/route-kit.js';
import { listProjectsResponse, ProjectList, projectListFilter, renderProject } from '../projects.js';

/** Forks (doc/api/project_forks.md): the projects merge requests cross between. */
export function forkRoutes(app: FastifyInstance, ctx: RestContext<'forks' | 'projectAvatars' | 'projectTransfer' | 'projects'>): void {
  const r = routes(app);
  r.post(
    '/projects/:id/fork',
    Input({
      id: NamespacedRef(),
      namespace_id: Optional(Text({ description: 'ID or full path' })),
      namespace: Optional(Text({ description: 'ID or full path (deprecated name of namespace_id)' })),
      namespace_path: Optional(Text()),
      name: Optional(Text()),
      path: Optional(Text()),
      description: Optional(Str()),
      visibility: Optional(Text()),
    }),
    async (params, request, reply) => {
      const actor = signedIn(request);
      const fork = await ctx.services.forks.fork(actor, params.id, {
        namespaceId: params.namespace_id ?? params.namespace,
        namespacePath: params.namespace_path,
        name: params.name,
        path: params.path,
        description: params.description,
        visibility: params.visibility,
      });
      return reply.status(201).send(await renderProject(ctx, actor, fork));
    },
  );

  r.get('/projects/:id/forks', Input({ ...ProjectList.properties, id: NamespacedRef() }), async (params, request, reply) => {
    const source = await ctx.services.projects.find(request.actor, params.id);
    return listProjectsResponse(ctx, request, reply, params, { ...projectListFilter(params), forkedFromId: source.id });
  });
}
