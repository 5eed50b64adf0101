import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MembershipTarget } from '../../../domains/members/members.service.js';
import { signedIn, type RestContext } from '../context.js';
import { member } from '../entities/members.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Id, Input, List, NamespacedRef, Nullable, Optional, Pagination, PathId, routes, Str } from '../input/route-kit.js';

const MemberId = PathId('Member');

/** Members routes, mounted under /projects/:id and /groups/:id with the same handlers. */
export function memberRoutes(app: FastifyInstance, ctx: RestContext<'groups' | 'members' | 'projects'>): void {
  const { members } = ctx.services;
  const r = routes(app);
  const sources: [string, (request: FastifyRequest, id: string) => Promise<MembershipTarget>][] = [
    ['/projects/:id', async (request, id) => ({ project: await ctx.services.projects.find(request.actor, id) })],
    ['/groups/:id', async (request, id) => ({ group: await ctx.services.groups.find(request.actor, id) })],
  ];

  for (const [prefix, target] of sources) {
    for (const all of [false, true]) {
      const base = `${prefix}/members${all ? '/all' : ''}`;
      r.get(base, Input({ id: NamespacedRef(), ...Pagination, query: Optional(Str()), user_ids: Optional(List(Id())) }), async (params, request, reply) => {
        const page = parsePage(params);
        const result = await members.list(request.actor, await target(request, params.id), { all, query: params.query, userIds: params.user_ids, limit: page.limit, offset: page.offset });
        reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
        return result.members.map((m) => member(m, ctx.urls));
      });
      r.get(`${base}/:user_id`, Input({ id: NamespacedRef(), user_id: MemberId }), async ({ id, user_id }, request) =>
        member(await members.get(request.actor, await target(request, id), user_id, all), ctx.urls),
      );
    }

    r.post(
      `${prefix}/members`,
      Input({ id: NamespacedRef(), user_id: Optional(Str({ description: 'user ID, or IDs separated by commas' })), username: Optional(Str()), access_level: Optional(Str()), expires_at: Optional(Str()) }),
      async ({ id, ...params }, request, reply) => {
        const created = await members.add(signedIn(request), await target(request, id), params);
        return reply.status(201).send(member(created, ctx.urls));
      },
    );

    r.put(
      `${prefix}/members/:user_id`,
      Input({ id: NamespacedRef(), user_id: MemberId, access_level: Optional(Str()), expires_at: Optional(Nullable(Str())) }),
      async ({ id, user_id, access_level, expires_at }, request) => {
        const updated = await members.update(signedIn(request), await target(request, id), user_id, { access_level, expires_at });
        return member(updated, ctx.urls);
      },
    );

    r.delete(`${prefix}/members/:user_id`, Input({ id: NamespacedRef(), user_id: MemberId }), async ({ id, user_id }, request, reply) => {
      await members.remove(signedIn(request), await target(request, id), user_id);
      return reply.status(204).send();
    });
  }
}
