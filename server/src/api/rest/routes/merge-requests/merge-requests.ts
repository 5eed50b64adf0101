import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { MergeRequest } from '../../../../domains/merge-requests/merge-request.js';
import type { OpenedMergeRequest } from '../../../../domains/merge-requests/merge-requests.service.js';
import { signedIn, type RestContext } from '../../context.js';
import { mergeRequestBasic, mergeRequestFull, mergeRequestSimple, type FullEntityOptions } from '../../entities/merge-requests.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Bool, Input, NamespacedRef, Optional, routes, type Static } from '../../input/route-kit.js';
import { createInput, listFilter, MergeRequestCreate, MergeRequestList, MergeRequestPath, MergeRequestUpdate, updateInput } from './input.js';

/** The caller, project and iid of a merge request route (its declared `MergeRequestPath`). */
export function mergeRequestRef(request: FastifyRequest, path: { id: string; iid: number }): [Actor, string, number] {
  return [request.actor, path.id, path.iid];
}

export async function renderMergeRequest(ctx: RestContext, actor: Actor, opened: OpenedMergeRequest, options: FullEntityOptions = {}) {
  return mergeRequestFull(await ctx.services.mergeRequestViews.detail(actor, opened), ctx.urls, options);
}

async function renderList(ctx: RestContext, params: Static<typeof MergeRequestList>, mergeRequests: MergeRequest[]) {
  if (params.view === 'simple') return mergeRequests.map((mr) => mergeRequestSimple(mr, ctx.urls));
  const withLabelsDetails = params.with_labels_details === true;
  return (await ctx.services.mergeRequestViews.views(mergeRequests)).map((view) => mergeRequestBasic(view, ctx.urls, { withLabelsDetails }));
}

/** Listing, opening, reading, editing and deleting merge requests: doc/api/merge_requests.md. */
export function mergeRequestCrudRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeRequests } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests';

  // Signed-in callers see their own by default; anyone may ask for scope=all (GitLab's authenticate! unless scope=all).
  r.get('/merge_requests', MergeRequestList, async (params, request, reply) => {
    const filter = listFilter(params, { scope: 'created_by_me' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const result = await mergeRequests.list(request.actor, filter, page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return renderList(ctx, params, result.mergeRequests);
  });

  r.get(base, Input({ ...MergeRequestList.properties, id: NamespacedRef() }), async (params, request, reply) => {
    const filter = listFilter(params, { scope: 'all' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const result = await mergeRequests.list(request.actor, filter, page, params.id);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return renderList(ctx, params, result.mergeRequests);
  });

  r.post(base, MergeRequestCreate, async (params, request, reply) => {
    const actor = signedIn(request);
    const opened = await mergeRequests.create(actor, params.id, createInput(params));
    return reply.status(201).send(await renderMergeRequest(ctx, actor, opened));
  });

  r.get(`${base}/:iid`, Input({ ...MergeRequestPath, include_diverged_commits_count: Optional(Bool()), with_labels_details: Optional(Bool()), include_rebase_in_progress: Optional(Bool()) }), async (params, request) => {
    const opened = await mergeRequests.open(...mergeRequestRef(request, params));
    return renderMergeRequest(ctx, request.actor, opened, {
      includeDivergedCommitsCount: params.include_diverged_commits_count === true,
      withLabelsDetails: params.with_labels_details === true,
    });
  });

  r.put(`${base}/:iid`, MergeRequestUpdate, async (params, request) => {
    const actor = signedIn(request);
    return renderMergeRequest(ctx, actor, await mergeRequests.update(actor, params.id, params.iid, updateInput(params)));
  });

  // GitLab: owners and administrators only; 204.
  r.delete(`${base}/:iid`, Input(MergeRequestPath), async (params, request, reply) => {
    const actor = signedIn(request);
    await mergeRequests.remove(actor, params.id, params.iid);
    return reply.status(204).send();
  });
}
