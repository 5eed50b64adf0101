import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { Bool, Input, Optional, routes } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';

/**
 * `PUT /projects/:id/merge_requests/:iid/rebase` (`skip_ci`): 202 `{"rebase_in_progress": true}`;
 * the rebase runs in a job. Poll the merge request for `rebase_in_progress` and `merge_error`.
 */
export function rebaseRoutes(app: FastifyInstance, ctx: RestContext<'rebasing'>): void {
  routes(app).put('/projects/:id/merge_requests/:iid/rebase', Input({ ...MergeRequestPath, skip_ci: Optional(Bool()) }), async (params, request, reply) => {
    const result = await ctx.services.rebasing.schedule(signedIn(request), params.id, params.iid, { skipCi: params.skip_ci ?? false });
    return reply.status(202).send(result);
  });
}
