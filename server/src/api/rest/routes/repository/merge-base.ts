import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { commitEntity } from '../../entities/commits.js';
import { Input, List, NamespacedRef, Optional, routes, Str } from '../../input/route-kit.js';

/** GET /projects/:id/repository/merge_base?refs[]=a&refs[]=b (doc/api/repositories.md#merge-base): Entities::Commit. */
export function mergeBaseRoutes(app: FastifyInstance, ctx: RestContext<'compare'>): void {
  // Grape's CommaSeparatedToArray: `refs[]=a&refs[]=b` and `refs=a,b` alike.
  routes(app).get('/projects/:id/repository/merge_base', Input({ id: NamespacedRef(), refs: Optional(List(Str())) }), async (params, request) => {
    const { project, commit } = await ctx.services.compare.mergeBase(request.actor, params.id, params.refs ?? []);
    return commitEntity(commit, project, ctx.urls);
  });
}
