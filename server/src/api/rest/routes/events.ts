import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, type RestContext } from '../context.js';
import { pushEvent } from '../entities/events.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { oneOf, optionalInt, optionalString } from '../params.js';

/**
 * GET /projects/:id/events: the project's activity. Pushes are the events
 * Tributary records so far, so `action` other than `pushed` lists nothing.
 * Push events name branches, so reading them needs `download_code`.
 */
export function eventRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.get('/projects/:id/events', async (request, reply) => {
    const project = await ctx.services.projects.find(request.actor, pathParam(request, 'id'));
    await ctx.authorizer.authorize(request.actor, 'download_code', { project });
    const params = input(request);
    const page = parsePage(params);
    const action = optionalString(params, 'action');
    const afterText = optionalString(params, 'after');
    const after = afterText ? new Date(afterText) : undefined;
    if (after && Number.isNaN(after.getTime())) throw new ValidationError('400 (Bad request) "after" is invalid');
    const result =
      action === undefined || action === 'pushed'
        ? await ctx.services.pushEvents.list({
            projectId: project.id,
            authorId: optionalInt(params, 'author_id'),
            after,
            sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc'),
            limit: page.limit,
            offset: page.offset,
          })
        : { events: [], total: 0 };
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.events.map((event) => pushEvent(event, ctx.urls));
  });
}
