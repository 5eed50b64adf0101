import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { MergeRequest } from '../../../../domains/merge-requests/merge-request.js';
import type { OpenedMergeRequest } from '../../../../domains/merge-requests/merge-requests.service.js';
import { NotFoundError } from '../../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { mergeRequestBasic, mergeRequestFull, mergeRequestSimple, type FullEntityOptions } from '../../entities/merge-requests.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalBool, optionalString, type Params } from '../../params.js';
import { parseCreate, parseIid, parseListFilter, parseUpdate } from './input.js';

/** The project and iid of a merge request route; a malformed iid names no merge request. */
export function mergeRequestRef(request: FastifyRequest): [Actor, string, number] {
  const iid = parseIid(pathParam(request, 'iid'));
  if (iid === null) throw new NotFoundError('Merge Request');
  return [request.actor, pathParam(request, 'id'), iid];
}

export async function renderMergeRequest(ctx: RestContext, actor: Actor, opened: OpenedMergeRequest, options: FullEntityOptions = {}) {
  return mergeRequestFull(await ctx.services.mergeRequestViews.detail(actor, opened), ctx.urls, options);
}

async function renderList(ctx: RestContext, params: Params, mergeRequests: MergeRequest[]) {
  if (optionalString(params, 'view') === 'simple') return mergeRequests.map((mr) => mergeRequestSimple(mr, ctx.urls));
  const withLabelsDetails = optionalBool(params, 'with_labels_details') === true;
  return (await ctx.services.mergeRequestViews.views(mergeRequests)).map((view) => mergeRequestBasic(view, ctx.urls, { withLabelsDetails }));
}

/** Listing, opening, reading, editing and deleting merge requests: doc/api/merge_requests.md. */
export function mergeRequestCrudRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeRequests } = ctx.services;
  const base = '/projects/:id/merge_requests';

  // Signed-in callers see their own by default; anyone may ask for scope=all (GitLab's authenticate! unless scope=all).
  app.get('/merge_requests', async (request, reply) => {
    const params = input(request);
    const filter = parseListFilter(params, { scope: 'created_by_me' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const result = await mergeRequests.list(request.actor, filter, page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return renderList(ctx, params, result.mergeRequests);
  });

  app.get(base, async (request, reply) => {
    const params = input(request);
    const filter = parseListFilter(params, { scope: 'all' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const result = await mergeRequests.list(request.actor, filter, page, pathParam(request, 'id'));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, result.total));
    return renderList(ctx, params, result.mergeRequests);
  });

  app.post(base, async (request, reply) => {
    const actor = signedIn(request);
    const opened = await mergeRequests.create(actor, pathParam(request, 'id'), parseCreate(input(request)));
    return reply.status(201).send(await renderMergeRequest(ctx, actor, opened));
  });

  app.get(`${base}/:iid`, async (request) => {
    const opened = await mergeRequests.open(...mergeRequestRef(request));
    const params = input(request);
    return renderMergeRequest(ctx, request.actor, opened, {
      includeDivergedCommitsCount: optionalBool(params, 'include_diverged_commits_count') === true,
      withLabelsDetails: optionalBool(params, 'with_labels_details') === true,
    });
  });

  app.put(`${base}/:iid`, async (request) => {
    const actor = signedIn(request);
    const [, id, iid] = mergeRequestRef(request);
    return renderMergeRequest(ctx, actor, await mergeRequests.update(actor, id, iid, parseUpdate(input(request))));
  });

  // GitLab: owners and administrators only; 204.
  app.delete(`${base}/:iid`, async (request, reply) => {
    const actor = signedIn(request);
    const [, id, iid] = mergeRequestRef(request);
    await mergeRequests.remove(actor, id, iid);
    return reply.status(204).send();
  });
}
