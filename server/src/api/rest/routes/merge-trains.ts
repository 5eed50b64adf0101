import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { mergeTrainCarEntity } from '../entities/merge-trains.js';
import { paginationHeaders, parsePage, requestUrl } from '../pagination.js';
import { Bool, Enum, Input, NamespacedRef, Optional, Pagination, routes, Str } from '../input/route-kit.js';
import { MergeRequestPath } from './merge-requests/input.js';

const base = '/projects/:id/merge_trains';
const ListFilter = {
  ...Pagination,
  scope: Optional(Enum(['active', 'complete'] as const)),
  sort: Optional(Enum(['asc', 'desc'] as const)),
};
const CarPath = { id: MergeRequestPath.id, merge_request_iid: MergeRequestPath.iid };

/**
 * GitLab's Merge Trains API (ee/lib/api/merge_trains.rb): the cars of a project and of one target
 * branch (newest first unless `sort=asc`, paginated), a merge request's car, and adding a
 * merge request (201 with the whole train; 202 when `when_pipeline_succeeds`/`auto_merge` sets it to
 * be added once its checks pass, as they do not yet). A stranger gets 404; below Developer, or on a
 * project without merge trains, 403 (domains/merge-trains/merge-trains.service.ts).
 */
export function mergeTrainRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeTrains } = ctx.services;
  const r = routes(app);

  async function listing(params: { id: string | number; scope?: 'active' | 'complete'; sort?: 'asc' | 'desc'; page?: number; per_page?: number }, targetBranch: string | undefined, request: Parameters<Parameters<typeof r.get>[2]>[1], reply: Parameters<Parameters<typeof r.get>[2]>[2]) {
    const page = parsePage(params);
    const { project, cars, total } = await mergeTrains.list(request.actor, params.id, { targetBranch, scope: params.scope, sort: params.sort ?? 'desc', ...page });
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, total));
    const facts = await mergeTrains.facts(cars);
    return cars.map((car) => mergeTrainCarEntity(car, project, facts, ctx.urls));
  }

  r.get(base, Input({ id: NamespacedRef(), ...ListFilter }), (params, request, reply) => listing(params, undefined, request, reply));

  r.get(`${base}/:target_branch`, Input({ id: NamespacedRef(), target_branch: Str(), ...ListFilter }), (params, request, reply) => listing(params, params.target_branch, request, reply));

  r.get(`${base}/merge_requests/:merge_request_iid`, Input(CarPath), async (params, request) => {
    const { opened, car } = await mergeTrains.carByPath(request.actor, params.id, params.merge_request_iid);
    return mergeTrainCarEntity(car, opened.project, await mergeTrains.facts([car]), ctx.urls);
  });

  r.post(
    `${base}/merge_requests/:merge_request_iid`,
    Input({ ...CarPath, sha: Optional(Str()), squash: Optional(Bool()), when_pipeline_succeeds: Optional(Bool()), auto_merge: Optional(Bool()) }),
    async (params, request, reply) => {
      const actor = signedIn(request);
      const whenChecksPass = params.when_pipeline_succeeds === true || params.auto_merge === true;
      const { opened, added, train } = await mergeTrains.addByPath(actor, params.id, params.merge_request_iid, { sha: params.sha, squash: params.squash, whenChecksPass });
      const facts = await mergeTrains.facts(train.cars);
      return reply.status(added ? 201 : 202).send(train.cars.map((car) => mergeTrainCarEntity(car, opened.project, facts, ctx.urls)));
    },
  );
}
