import type { FastifyInstance } from 'fastify';
import { COMMIT_STATUS_STATES } from '../../../domains/commit-statuses/external-state.js';
import { signedIn, type RestContext } from '../context.js';
import { commitStatusEntity } from '../entities/commit-statuses.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Bool, Enum, Input, Int, NamespacedRef, Optional, Pagination, routes, Str, Text, Type } from '../input/route-kit.js';

const CommitPath = { id: NamespacedRef(), sha: Str() };

/**
 * Commit statuses (doc/api/commits.md "Commit status"): outside CI systems post the state of
 * their builds on a commit; they become jobs of the commit's pipeline (domains/commit-statuses/).
 */
export function commitStatusRoutes(app: FastifyInstance, ctx: RestContext<'commitStatuses'>): void {
  const { commitStatuses } = ctx.services;
  const r = routes(app);

  r.get(
    '/projects/:id/repository/commits/:sha/statuses',
    Input({
      ...CommitPath,
      ...Pagination,
      ref: Optional(Text()),
      stage: Optional(Text()),
      name: Optional(Text()),
      pipeline_id: Optional(Int()),
      all: Optional(Bool()),
      order_by: Optional(Enum(['id', 'pipeline_id'] as const, { default: 'id' })),
      sort: Optional(Enum(['asc', 'desc'] as const, { default: 'asc' })),
    }),
    async (params, request, reply) => {
      const page = parsePage(params);
      const result = await commitStatuses.list(request.actor, params.id, params.sha, {
        ref: params.ref,
        stage: params.stage,
        name: params.name,
        pipelineId: params.pipeline_id,
        all: params.all ?? false,
        orderBy: params.order_by ?? 'id',
        sort: params.sort ?? 'asc',
        limit: page.limit,
        offset: page.offset,
      });
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
      return result.rows.map((row) => commitStatusEntity(row, result.users, ctx.urls));
    },
  );

  // GitLab answers a posted status with 201 (Grape's default for POST).
  r.post(
    '/projects/:id/statuses/:sha',
    Input({
      ...CommitPath,
      state: Enum(COMMIT_STATUS_STATES),
      ref: Optional(Str()),
      target_url: Optional(Str()),
      description: Optional(Str()),
      name: Optional(Str()),
      context: Optional(Str()),
      coverage: Optional(Type.Number({ 'x-blank-absent': true })),
      pipeline_id: Optional(Int()),
    }),
    async (params, request, reply) => {
      const result = await commitStatuses.create(signedIn(request), params.id, params.sha, {
        state: params.state,
        ref: params.ref,
        name: params.name,
        context: params.context,
        targetUrl: params.target_url,
        description: params.description,
        coverage: params.coverage,
        pipelineId: params.pipeline_id,
      });
      return reply.status(201).send(commitStatusEntity(result.rows[0]!, result.users, ctx.urls));
    },
  );
}
