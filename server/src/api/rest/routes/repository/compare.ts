import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../../context.js';
import { compareEntity } from '../../entities/commits.js';
import { mergeRequestDiffEntity } from '../../entities/merge-request-diffs.js';
import { Bool, Input, Int, List, NamespacedRef, Optional, routes, Str } from '../../input/route-kit.js';

/**
 * GET /projects/:id/repository/compare (doc/api/repositories.md#compare-branches-tags-or-commits):
 * `to` in this project, `from` in `from_project_id` (another project of the fork network the
 * caller can read; the new merge request page of a fork compares with its upstream).
 * `paths[]` is Tributary's (GitLab's web app has its compare `diff_for_path`): only the files at
 * those paths, with git's patch even where the whole compare left it out past its line limit; the
 * web app shows a file collapsed that way with it.
 */
export function compareRoutes(app: FastifyInstance, ctx: RestContext<'compare'>): void {
  const Compare = Input({ id: NamespacedRef(), from: Str(), to: Str(), straight: Optional(Bool()), from_project_id: Optional(Int()), unidiff: Optional(Bool()), paths: Optional(List(Str(), { comma: false })) });
  routes(app).get('/projects/:id/repository/compare', Compare, async (params, request) => {
    const { from, to } = params;
    const { project, comparison } = await ctx.services.compare.compare(request.actor, params.id, { from, to, straight: params.straight, fromProjectId: params.from_project_id, paths: params.paths });
    const unidiff = params.unidiff === true;
    // Each diff with its line counts, as the merge request endpoints give them (a too large file has no text to count).
    return Object.assign(compareEntity(comparison, { from, to }, project, ctx.urls), { diffs: comparison.diffs.map((diff) => mergeRequestDiffEntity(diff, { unidiff })) });
  });
}
