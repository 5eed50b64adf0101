import type { FastifyInstance } from 'fastify';
import { input, pathParam, type RestContext } from '../../context.js';
import { commitEntity } from '../../entities/commits.js';
import { optionalStringArray } from '../../params.js';

/** GET /projects/:id/repository/merge_base?refs[]=a&refs[]=b (doc/api/repositories.md#merge-base): Entities::Commit. */
export function mergeBaseRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.get('/projects/:id/repository/merge_base', async (request) => {
    // Grape's CommaSeparatedToArray: `refs[]=a&refs[]=b` and `refs=a,b` alike.
    const refs = optionalStringArray(input(request), 'refs') ?? [];
    const { project, commit } = await ctx.services.compare.mergeBase(request.actor, pathParam(request, 'id'), refs);
    return commitEntity(commit, project, ctx.urls);
  });
}
