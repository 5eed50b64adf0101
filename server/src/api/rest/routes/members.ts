import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../platform/errors.js';
import type { MembershipTarget } from '../../../domains/members/members.service.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { member } from '../entities/members.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { optionalString, type Params } from '../params.js';

function userIdParam(request: FastifyRequest): number {
  const raw = pathParam(request, 'user_id');
  if (!/^\d+$/.test(raw)) throw new NotFoundError('Member');
  return Number(raw);
}

function userIds(params: Params): number[] | undefined {
  const raw = params.user_ids;
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : String(raw).split(',')).map(Number).filter(Number.isSafeInteger);
}

/** Members routes, mounted under /projects/:id and /groups/:id with the same handlers. */
export function memberRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { members } = ctx.services;
  const sources: [string, (request: FastifyRequest) => Promise<MembershipTarget>][] = [
    ['/projects/:id', async (request) => ({ project: await ctx.services.projects.find(request.actor, pathParam(request, 'id')) })],
    ['/groups/:id', async (request) => ({ group: await ctx.services.groups.find(request.actor, pathParam(request, 'id')) })],
  ];

  for (const [prefix, target] of sources) {
    for (const all of [false, true]) {
      const base = `${prefix}/members${all ? '/all' : ''}`;
      app.get(base, async (request, reply) => {
        const params = input(request);
        const page = parsePage(params);
        const result = await members.list(request.actor, await target(request), {
          all,
          query: optionalString(params, 'query'),
          userIds: userIds(params),
          limit: page.limit,
          offset: page.offset,
        });
        reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
        return result.members.map((m) => member(m, ctx.urls));
      });
      app.get(`${base}/:user_id`, async (request) => member(await members.get(request.actor, await target(request), userIdParam(request), all), ctx.urls));
    }

    app.post(`${prefix}/members`, async (request, reply) => {
      const params = input(request);
      const created = await members.add(signedIn(request), await target(request), {
        user_id: optionalString(params, 'user_id'),
        username: optionalString(params, 'username'),
        access_level: optionalString(params, 'access_level'),
        expires_at: optionalString(params, 'expires_at'),
      });
      return reply.status(201).send(member(created, ctx.urls));
    });

    app.put(`${prefix}/members/:user_id`, async (request) => {
      const params = input(request);
      const updated = await members.update(signedIn(request), await target(request), userIdParam(request), {
        access_level: optionalString(params, 'access_level'),
        expires_at: params.expires_at === undefined ? undefined : (optionalString(params, 'expires_at') ?? null),
      });
      return member(updated, ctx.urls);
    });

    app.delete(`${prefix}/members/:user_id`, async (request, reply) => {
      await members.remove(signedIn(request), await target(request), userIdParam(request));
      return reply.status(204).send();
    });
  }
}
