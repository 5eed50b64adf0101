import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { userFull, userPublic } from '../entities/users.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { optionalBool, optionalString, requiredString } from '../params.js';

export function userRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { users } = ctx.services;

  app.get('/user', { config: { userEndpoint: true } }, async (request) => userFull(signedIn(request).user, ctx.urls));

  app.get('/users', { config: { userEndpoint: true } }, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const result = await users.list({ search: optionalString(params, 'search'), username: optionalString(params, 'username'), limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    const full = request.actor.user?.is_admin === true;
    return result.users.map((user) => (full ? userFull(user, ctx.urls) : userPublic(user, ctx.urls)));
  });

  app.get('/users/:id', { config: { userEndpoint: true } }, async (request) => {
    const id = pathParam(request, 'id');
    if (!/^\d+$/.test(id)) throw new NotFoundError('User');
    const user = await users.get(Number(id));
    return request.actor.user?.is_admin || request.actor.user?.id === user.id ? userFull(user, ctx.urls) : userPublic(user, ctx.urls);
  });

  for (const [action, blocked] of [['block', true], ['unblock', false]] as const) {
    app.post(`/users/:id/${action}`, async (request, reply) => {
      const id = pathParam(request, 'id');
      if (!/^\d+$/.test(id)) throw new NotFoundError('User');
      await users.setBlocked(signedIn(request), Number(id), blocked);
      return reply.status(201).send(true);
    });
  }

  app.post('/users', async (request, reply) => {
    const params = input(request);
    const user = await users.create(signedIn(request), {
      username: requiredString(params, 'username'),
      name: requiredString(params, 'name'),
      email: requiredString(params, 'email'),
      password: requiredString(params, 'password'),
      admin: optionalBool(params, 'admin'),
    });
    return reply.status(201).send(userFull(user, ctx.urls));
  });
}
