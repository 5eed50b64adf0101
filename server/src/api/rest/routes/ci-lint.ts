import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../context.js';
import { optionalBool, optionalString } from '../params.js';

/**
 * POST /projects/:id/ci/lint (doc/api/lint.md): validates `content` in the project's context and
 * answers 200 `{valid, errors, warnings, merged_yaml, includes[, jobs]}` as GitLab does, invalid
 * configurations included. `dry_run` simulates a pipeline on `ref` (workflow:rules apply).
 */
export function ciLintRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.post('/projects/:id/ci/lint', async (request, reply) => {
    const params = input(request);
    const content = optionalString(params, 'content');
    if (content === undefined) throw ValidationError.missing('content');
    const result = await ctx.services.ciLint.lint(request.actor, pathParam(request, 'id'), {
      content,
      dryRun: optionalBool(params, 'dry_run') ?? false,
      includeJobs: optionalBool(params, 'include_jobs') ?? false,
      ref: optionalString(params, 'ref') || undefined,
    });
    return reply.status(200).send(result);
  });
}
