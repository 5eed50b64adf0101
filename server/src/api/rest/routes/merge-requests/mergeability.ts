import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { BlockingReference, BlockView } from '../../../../domains/merge-requests/mergeability/index.js';
import { ValidationError } from '../../../../platform/errors.js';
import { signedIn, type RestContext } from '../../context.js';
import { mergeRequestDependency } from '../../entities/merge-requests.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Input, Int, Optional, Pagination, PathId, routes, Text, type Static } from '../../input/route-kit.js';
import { MergeRequestPath } from './input.js';

const base = '/projects/:id/merge_requests/:iid';

export const BlockCreate = Input({ ...MergeRequestPath, blocking_merge_request_id: Optional(Int()), blocking_merge_request_iid: Optional(Int()), blocking_project_id: Optional(Text({ description: 'ID or full path' })) });

/** `blocking_merge_request_id` (global) or `blocking_merge_request_iid` [+ `blocking_project_id`], exactly one (Grape's exactly_one_of). */
export function blockingReference(params: Static<typeof BlockCreate>): BlockingReference {
  const { blocking_merge_request_id: id, blocking_merge_request_iid: iid, blocking_project_id: project } = params;
  if (id !== undefined && iid !== undefined) throw new ValidationError('blocking_merge_request_id, blocking_merge_request_iid are mutually exclusive');
  if (id !== undefined) return { id };
  if (iid !== undefined) return project === undefined ? { iid } : { iid, project };
  throw new ValidationError('blocking_merge_request_id, blocking_merge_request_iid are missing, exactly one parameter must be provided');
}

const BlockPath = Input({ ...MergeRequestPath, block_id: PathId('Block') });

/**
 * The merge ref and merge request dependencies: GET …/merge_ref (GitLab rechecks the trial
 * merge synchronously), and GitLab's merge request dependencies API (…/blocks, …/blockees).
 */
export function mergeabilityRoutes(app: FastifyInstance, ctx: RestContext<'mergeRequestViews' | 'mergeRequests' | 'mergeability'>): void {
  const { mergeRequests, mergeability, mergeRequestViews } = ctx.services;

  async function render(views: BlockView[]) {
    const requests = views.flatMap((view) => [view.blocking, view.blocked]).filter((mr) => mr !== null);
    const byId = new Map((await mergeRequestViews.views([...new Map(requests.map((mr) => [mr.id, mr])).values()])).map((view) => [view.mergeRequest.id, view]));
    return views.map((view) =>
      mergeRequestDependency(view.block, { blocking: view.blocking && byId.get(view.blocking.id)!, blocked: view.blocked && byId.get(view.blocked.id)! }, ctx.urls),
    );
  }
  const r = routes(app);
  const open = (actor: Actor, path: { id: string; iid: number }) => mergeRequests.open(actor, path.id, path.iid);
  const Paged = Input({ ...MergeRequestPath, ...Pagination });

  // gitbeaker's MergeRequests.mergeToDefault() sends PUT to the same path: both answer.
  for (const method of ['get', 'put'] as const) {
    r[method](`${base}/merge_ref`, Input(MergeRequestPath), async (params, request) => {
      const opened = await open(request.actor, params);
      return { commit_id: await mergeability.mergeRefCommit(opened.mergeRequest.id) };
    });
  }

  r.get(`${base}/blocks`, Paged, async (params, request, reply) => {
    const opened = await open(request.actor, params);
    const page = parsePage(params);
    const all = await mergeability.blocks.list(request.actor, opened);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, all.length));
    return render(all.slice(page.offset, page.offset + page.limit));
  });

  r.get(`${base}/blocks/:block_id`, BlockPath, async (params, request) => {
    const opened = await open(request.actor, params);
    return (await render([await mergeability.blocks.get(request.actor, opened, params.block_id)]))[0];
  });

  r.post(`${base}/blocks`, BlockCreate, async (params, request, reply) => {
    const actor = signedIn(request);
    const opened = await open(actor, params);
    const created = await mergeability.blocks.create(actor, opened, blockingReference(params));
    return reply.status(201).send((await render([created]))[0]);
  });

  r.delete(`${base}/blocks/:block_id`, BlockPath, async (params, request, reply) => {
    const actor = signedIn(request);
    const opened = await open(actor, params);
    await mergeability.blocks.remove(actor, opened, params.block_id);
    return reply.status(204).send();
  });

  r.get(`${base}/blockees`, Paged, async (params, request, reply) => {
    const opened = await open(request.actor, params);
    const page = parsePage(params);
    const all = await mergeability.blocks.blockees(request.actor, opened);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, all.length));
    return render(all.slice(page.offset, page.offset + page.limit));
  });
}
