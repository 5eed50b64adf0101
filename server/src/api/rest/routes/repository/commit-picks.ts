import type { FastifyInstance } from 'fastify';
import { PickRefusedError, type PickInput } from '../../../../domains/repository/commit-picks.service.js';
import { signedIn, type RestContext } from '../../context.js';
import { commitDetail } from '../../entities/commits.js';
import { Bool, Input, NamespacedRef, Optional, routes, Str, Text } from '../../input/route-kit.js';

/** Revert and cherry-pick a commit onto a branch: doc/api/commits.md. */
export function commitPickRoutes(app: FastifyInstance, ctx: RestContext<'commitPicks'>): void {
  const r = routes(app);
  const base = '/projects/:id/repository/commits/:sha';
  const Pick = Input({ id: NamespacedRef(), sha: Str(), branch: Str(), message: Optional(Text()), dry_run: Optional(Bool()) });

  for (const [action, mode] of [['revert', 'revert'], ['cherry_pick', 'cherry-pick']] as const satisfies ReadonlyArray<readonly [string, PickInput['mode']]>) {
    r.post(`${base}/${action}`, Pick, async (params, request, reply) => {
      const actor = signedIn(request);
      try {
        const result = await ctx.services.commitPicks.apply(actor, params.id, {
          mode,
          sha: params.sha,
          branch: params.branch,
          message: mode === 'cherry-pick' ? params.message : undefined,
          dryRun: params.dry_run === true,
        });
        if (result.dryRun) return reply.status(200).send({ dry_run: 'success' });
        return reply.status(201).send(commitDetail(result.commit, result.stats, result.project, ctx.urls));
      } catch (error) {
        // GitLab adds an `error_code` to this one refusal; every other error goes to the error handler.
        if (error instanceof PickRefusedError) return reply.status(400).send({ message: error.body, error_code: error.errorCode });
        throw error;
      }
    });
  }
}
