import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PickRefusedError, type PickInput } from '../../../../domains/repository/commit-picks.service.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { commitDetail } from '../../entities/commits.js';
import { optionalBool, optionalString, requiredString } from '../../params.js';

/** Revert and cherry-pick a commit onto a branch: doc/api/commits.md. */
export function commitPickRoutes(app: FastifyInstance, ctx: RestContext): void {
  const base = '/projects/:id/repository/commits/:sha';

  async function pick(request: FastifyRequest, reply: FastifyReply, mode: PickInput['mode']) {
    const params = input(request);
    const actor = signedIn(request);
    try {
      const result = await ctx.services.commitPicks.apply(actor, pathParam(request, 'id'), {
        mode,
        sha: pathParam(request, 'sha'),
        branch: requiredString(params, 'branch'),
        message: mode === 'cherry-pick' ? optionalString(params, 'message') || undefined : undefined,
        dryRun: optionalBool(params, 'dry_run') === true,
      });
      if (result.dryRun) return reply.status(200).send({ dry_run: 'success' });
      return reply.status(201).send(commitDetail(result.commit, result.stats, result.project, ctx.urls));
    } catch (error) {
      // GitLab adds an `error_code` to this one refusal; every other error goes to the error handler.
      if (error instanceof PickRefusedError) return reply.status(400).send({ message: error.body, error_code: error.errorCode });
      throw error;
    }
  }

  app.post(`${base}/revert`, (request, reply) => pick(request, reply, 'revert'));
  app.post(`${base}/cherry_pick`, (request, reply) => pick(request, reply, 'cherry-pick'));
}
