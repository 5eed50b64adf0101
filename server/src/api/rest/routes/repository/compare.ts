import type { FastifyInstance } from 'fastify';
import { input, pathParam, type RestContext } from '../../context.js';
import { compareEntity } from '../../entities/commits.js';
import { mergeRequestDiffEntity } from '../../entities/merge-request-diffs.js';
import { optionalBool, optionalInt, requiredString } from '../../params.js';

/**
 * GET /projects/:id/repository/compare (doc/api/repositories.md#compare-branches-tags-or-commits):
 * `to` in this project, `from` in `from_project_id` (another project of the fork network the
 * caller can read; the new merge request page of a fork compares with its upstream).
 */
export function compareRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.get('/projects/:id/repository/compare', async (request) => {
    const params = input(request);
    const from = requiredString(params, 'from');
    const to = requiredString(params, 'to');
    const { project, comparison } = await ctx.services.compare.compare(request.actor, pathParam(request, 'id'), {
      from,
      to,
      straight: optionalBool(params, 'straight'),
      fromProjectId: optionalInt(params, 'from_project_id'),
    });
    const unidiff = optionalBool(params, 'unidiff') === true;
    // Each diff with its line counts, as the merge request endpoints give them (a too large file has no text to count).
    return Object.assign(compareEntity(comparison, { from, to }, project, ctx.urls), { diffs: comparison.diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff })) });
  });
}
