import type { FastifyInstance } from 'fastify';
import type { UserListFilter } from '../../../domains/users/users.repository.js';
import { NotFoundError } from '../../../platform/errors.js';
import { signedIn, type RestContext } from '../context.js';
import { userFull, userPublic } from '../entities/users.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Bool, DateTime, Enum, Input, NamespacedRef, Optional, Pagination, PathId, routes, Str, type Static } from '../input/route-kit.js';
import { listProjectsResponse, ProjectList, projectListFilter } from './projects.js';

const UserId = PathId('User');

export const UserList = Input({
  ...Pagination,
  search: Optional(Str()),
  username: Optional(Str()),
  admins: Optional(Bool()),
  blocked: Optional(Bool()),
  active: Optional(Bool()),
  exclude_active: Optional(Bool()),
  external: Optional(Bool()),
  order_by: Optional(Enum(['id', 'name', 'username', 'created_at', 'updated_at'] as const, { default: 'id' })),
  sort: Optional(Enum(['asc', 'desc'] as const, { default: 'desc' })),
  created_after: Optional(DateTime()),
  created_before: Optional(DateTime()),
  without_projects: Optional(Bool()),
});

/**
 * GitLab's GET /users filters. `created_after`, `created_before`, `without_projects`, `order_by`
 * and `sort` are read only for administrators (GitLab drops them for everyone else); `external`
 * users do not exist here, so asking for them lists none.
 */
export function userListFilter(params: Static<typeof UserList>, isAdmin: boolean): Omit<UserListFilter, 'limit' | 'offset'> & { none?: boolean } {
  const blocked = params.blocked === true;
  const active = params.active === true;
  const filter: Omit<UserListFilter, 'limit' | 'offset'> & { none?: boolean } = { search: params.search, username: params.username, admins: params.admins === true };
  if (blocked) filter.state = 'blocked';
  if (active) filter.state = 'active';
  if (params.exclude_active === true) filter.excludeState = 'active';
  if (params.external === true || (blocked && active)) filter.none = true;
  if (isAdmin) {
    Object.assign(filter, {
      orderBy: params.order_by ?? 'id',
      sort: params.sort ?? 'desc',
      createdAfter: params.created_after,
      createdBefore: params.created_before,
      withoutProjects: params.without_projects === true,
    });
  }
  return filter;
}

export function userRoutes(app: FastifyInstance, ctx: RestContext<'namespaces' | 'projectAvatars' | 'projectTransfer' | 'projects' | 'users'>): void {
  const { users } = ctx.services;
  const r = routes(app);
  const userEndpoint = { config: { userEndpoint: true } };

  r.get('/user', Input({}), async (_input, request) => userFull(signedIn(request).user, ctx.urls), userEndpoint);

  r.get(
    '/users',
    UserList,
    async (params, request, reply) => {
      const page = parsePage(params);
      const full = request.actor.user?.is_admin === true;
      const { none, ...filter } = userListFilter(params, full);
      const result = none ? { users: [], total: 0 } : await users.list({ ...filter, limit: page.limit, offset: page.offset });
      reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
      return result.users.map((user) => (full ? userFull(user, ctx.urls) : userPublic(user, ctx.urls)));
    },
    userEndpoint,
  );

  r.get(
    '/users/:id',
    Input({ id: UserId }),
    async ({ id }, request) => {
      const user = await users.get(id);
      return request.actor.user?.is_admin || request.actor.user?.id === user.id ? userFull(user, ctx.urls) : userPublic(user, ctx.urls);
    },
    userEndpoint,
  );

  // GitLab: the projects in the user's personal namespace that the caller may see (the user by id or username).
  r.get('/users/:user_id/projects', Input({ ...ProjectList.properties, user_id: NamespacedRef({ description: 'ID or username' }) }), async (params, request, reply) => {
    const ref = params.user_id;
    const user = /^\d{1,15}$/.test(ref) ? await users.get(Number(ref)) : await users.findByUsername(ref);
    if (!user) throw new NotFoundError('User');
    const namespace = await ctx.services.namespaces.findUserNamespace(user.id);
    return listProjectsResponse(ctx, request, reply, params, { ...projectListFilter(params), namespaceIds: namespace ? [namespace.id] : [] });
  });

  for (const [action, blocked] of [['block', true], ['unblock', false]] as const) {
    r.post(`/users/:id/${action}`, Input({ id: UserId }), async ({ id }, request, reply) => {
      const answer = await users.setBlocked(signedIn(request), id, blocked);
      // GitLab's bodies: true, or `null` (already blocked) / `false` (already active), as JSON.
      return reply.status(201).type('application/json').send(JSON.stringify(answer));
    });
  }

  r.post('/users', Input({ username: Str(), name: Str(), email: Str(), password: Str(), admin: Optional(Bool()) }), async (params, request, reply) => {
    const user = await users.create(signedIn(request), params);
    return reply.status(201).send(userFull(user, ctx.urls));
  });

  r.put(
    '/users/:id',
    Input({ id: UserId, name: Optional(Str()), email: Optional(Str()), username: Optional(Str()), password: Optional(Str()), admin: Optional(Bool()), bio: Optional(Str()) }),
    async ({ id, ...changes }, request) => userFull(await users.update(signedIn(request), id, changes), ctx.urls),
  );

  r.delete('/users/:id', Input({ id: UserId, hard_delete: Optional(Bool()) }), async ({ id, hard_delete }, request, reply) => {
    await users.remove(signedIn(request), id, { hardDelete: hard_delete === true });
    return reply.status(204).send();
  });
}
