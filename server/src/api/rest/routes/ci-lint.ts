import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../context.js';
import { BlankableStr, Bool, Input, NamespacedRef, Optional, routes, Text } from '../input/route-kit.js';

/**
 * POST /projects/:id/ci/lint (doc/api/lint.md): validates `content` in the project's context and
 * answers 200 `{valid, errors, warnings, merged_yaml, includes[, jobs]}` as GitLab does, invalid
 * configurations included. `dry_run` simulates a pipeline on `ref` (workflow:rules apply).
 */
export function ciLintRoutes(app: FastifyInstance, ctx: RestContext<'ciLint'>): void {
  const CiLint = Input({ id: NamespacedRef(), content: BlankableStr(), dry_run: Optional(Bool()), include_jobs: Optional(Bool()), ref: Optional(Text()) });
  routes(app).post('/projects/:id/ci/lint', CiLint, async (params, request, reply) => {
    const result = await ctx.services.ciLint.lint(request.actor, params.id, {
      content: params.content,
      dryRun: params.dry_run ?? false,
      includeJobs: params.include_jobs ?? false,
      ref: params.ref,
    });
    return reply.status(200).send(result);
  });
}
