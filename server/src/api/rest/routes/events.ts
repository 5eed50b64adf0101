import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../context.js';
import { pushEvent } from '../entities/events.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { DateTime, Enum, Input, Int, NamespacedRef, Optional, Pagination, routes, Str } from '../input/route-kit.js';

/**
 * GET /projects/:id/events: the project's activity. Pushes are the events
 * Tributary records so far, so `action` other than `pushed` lists nothing.
 * Push events name branches, so reading them needs `download_code`.
 */
export function eventRoutes(app: FastifyInstance, ctx: RestContext<'projects' | 'pushEvents'>): void {
  const EventList = Input({
    ...Pagination,
    id: NamespacedRef(),
    action: Optional(Str()),
    target_type: Optional(Str()),
    author_id: Optional(Int()),
    after: Optional(DateTime()),
    before: Optional(DateTime()),
    sort: Optional(Enum(['asc', 'desc'] as const, { default: 'desc' })),
  });
  routes(app).get('/projects/:id/events', EventList, async (params, request, reply) => {
    const project = await ctx.services.projects.find(request.actor, params.id);
    await ctx.authorizer.authorize(request.actor, 'download_code', { project });
    const page = parsePage(params);
    const result =
      params.action === undefined || params.action === 'pushed'
        ? await ctx.services.pushEvents.list({ projectId: project.id, authorId: params.author_id, after: params.after, sort: params.sort ?? 'desc', limit: page.limit, offset: page.offset })
        : { events: [], total: 0 };
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.events.map((event) => pushEvent(event, ctx.urls));
  });
}
