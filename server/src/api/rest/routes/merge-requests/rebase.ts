import type { FastifyInstance } from 'fastify';
import { input, signedIn, type RestContext } from '../../context.js';
import { optionalBool } from '../../params.js';
import { mergeRequestRef } from './merge-requests.js';

/**
 * `PUT /projects/:id/merge_requests/:iid/rebase` (`skip_ci`): 202 `{"rebase_in_progress": true}`;
 * the rebase runs in a job. Poll the merge request for `rebase_in_progress` and `merge_error`.
 */
export function rebaseRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.put('/projects/:id/merge_requests/:iid/rebase', async (request, reply) => {
    const actor = signedIn(request);
    const [, id, iid] = mergeRequestRef(request);
    const result = await ctx.services.rebasing.schedule(actor, id, iid, { skipCi: optionalBool(input(request), 'skip_ci') ?? false });
    return reply.status(202).send(result);
  });
}
