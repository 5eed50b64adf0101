import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserListFilter } from '../../../domains/users/users.repository.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { userFull, userPublic } from '../entities/users.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { oneOf, optionalBool, optionalString, requiredString, type Params } from '../params.js';
import { listProjectsResponse, projectListFilter } from './projects.js';

function userId(request: FastifyRequest, name = 'id'): number {
  const id = pathParam(request, name);
  if (!/^\d{1,15}$/.test(id)) throw new NotFoundError('User');
  return Number(id);
}

function optionalDate(params: Params, key: string): Date | undefined {
  const text = optionalString(params, key);
  if (text === undefined || text === '') return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
  return date;
}

/**
 * GitLab's GET /users filters. `created_after`, `created_before`, `without_projects`, `order_by`
 * and `sort` are read only for administrators (GitLab drops them for everyone else); `external`
 * users do not exist here, so asking for them lists none.
 */
export function userListFilter(params: Params, isAdmin: boolean): Omit<UserListFilter, 'limit' | 'offset'> & { none?: boolean } {
  const blocked = optionalBool(params, 'blocked') === true;
  const active = optionalBool(params, 'active') === true;
  const filter: Omit<UserListFilter, 'limit' | 'offset'> & { none?: boolean } = {
    search: optionalString(params, 'search'),
    username: optionalString(params, 'username'),
    admins: optionalBool(params, 'admins') === true,
  };
  if (blocked) filter.state = 'blocked';
  if (active) filter.state = 'active';
  if (optionalBool(params, 'exclude_active') === true) filter.excludeState = 'active';
  if (optionalBool(params, 'external') === true || (blocked && active)) filter.none = true;
  const orderBy = oneOf(params, 'order_by', ['id', 'name', 'username', 'created_at', 'updated_at'] as const, 'id');
  const sort = oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc');
  const createdAfter = optionalDate(params, 'created_after');
  const createdBefore = optionalDate(params, 'created_before');
  const withoutProjects = optionalBool(params, 'without_projects') === true;
  if (isAdmin) Object.assign(filter, { orderBy, sort, createdAfter, createdBefore, withoutProjects });
  return filter;
}

export function userRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { users } = ctx.services;

  app.get('/user', { config: { userEndpoint: true } }, async (request) => userFull(signedIn(request).user, ctx.urls));

  app.get('/users', { config: { userEndpoint: true } }, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const full = request.actor.user?.is_admin === true;
    const { none, ...filter } = userListFilter(params, full);
    const result = none ? { users: [], total: 0 } : await users.list({ ...filter, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.users.map((user) => (full ? userFull(user, ctx.urls) : userPublic(user, ctx.urls)));
  });

  app.get('/users/:id', { config: { userEndpoint: true } }, async (request) => {
    const user = await users.get(userId(request));
    return request.actor.user?.is_admin || request.actor.user?.id === user.id ? userFull(user, ctx.urls) : userPublic(user, ctx.urls);
  });

  // GitLab: the projects in the user's personal namespace that the caller may see (the user by id or username).
  app.get('/users/:user_id/projects', async (request, reply) => {
    const ref = pathParam(request, 'user_id');
    const user = /^\d{1,15}$/.test(ref) ? await users.get(Number(ref)) : await users.findByUsername(ref);
    if (!user) throw new NotFoundError('User');
    const namespace = await ctx.services.namespaces.findUserNamespace(user.id);
    return listProjectsResponse(ctx, request, reply, { ...projectListFilter(input(request)), namespaceIds: namespace ? [namespace.id] : [] });
  });

  for (const [action, blocked] of [['block', true], ['unblock', false]] as const) {
    app.post(`/users/:id/${action}`, async (request, reply) => {
      const answer = await users.setBlocked(signedIn(request), userId(request), blocked);
      // GitLab's bodies: true, or `null` (already blocked) / `false` (already active), as JSON.
      return reply.status(201).type('application/json').send(JSON.stringify(answer));
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

  app.put('/users/:id', async (request) => {
    const params = input(request);
    const actor = signedIn(request);
    const user = await users.update(actor, userId(request), {
      name: optionalString(params, 'name'),
      email: optionalString(params, 'email'),
      username: optionalString(params, 'username'),
      password: optionalString(params, 'password'),
      admin: optionalBool(params, 'admin'),
      bio: optionalString(params, 'bio'),
    });
    return userFull(user, ctx.urls);
  });

  app.delete('/users/:id', async (request, reply) => {
    const actor = signedIn(request);
    await users.remove(actor, userId(request), { hardDelete: optionalBool(input(request), 'hard_delete') === true });
    return reply.status(204).send();
  });
}
