import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { MergeRequest } from '../../../../domains/merge-requests/merge-request.js';
import { listReadsWatchedOnly } from '../../../../domains/merge-requests/cached-reads.js';
import type { MergeRequestListScope, OpenedMergeRequest } from '../../../../domains/merge-requests/merge-requests.service.js';
import { NotFoundError } from '../../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { mergeRequestBasic, mergeRequestFull, mergeRequestSimple, type FullEntityOptions } from '../../entities/merge-requests.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalBool, optionalString, type Params } from '../../params.js';
import { callerKey, renderedAnswers } from '../../rendered-answers.js';
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

interface ListOptions {
  simple: boolean;
  withLabelsDetails: boolean;
}

const listOptions = (params: Params): ListOptions => ({ simple: optionalString(params, 'view') === 'simple', withLabelsDetails: optionalBool(params, 'with_labels_details') === true });

async function renderList(ctx: RestContext, mergeRequests: MergeRequest[], options: ListOptions) {
  if (options.simple) return mergeRequests.map((mr) => mergeRequestSimple(mr, ctx.urls));
  return (await ctx.services.mergeRequestViews.views(mergeRequests)).map((view) => mergeRequestBasic(view, ctx.urls, { withLabelsDetails: options.withLabelsDetails }));
}

/** A serialised answer, as GitLab types it (exactly application/json). */
const sendJson = (reply: FastifyReply, body: string) => reply.type('application/json').send(body);

/** Listing, opening, reading, editing and deleting merge requests: doc/api/merge_requests.md. */
export function mergeRequestCrudRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeRequests } = ctx.services;
  const base = '/projects/:id/merge_requests';

  // Whole answers kept per caller until a watched table is written (rendered-answers.ts);
  // who may see what is still decided per request, before asking for them.
  const detailAnswer = renderedAnswers(
    ctx.watch,
    async (actor: Actor, opened: OpenedMergeRequest, options: FullEntityOptions) => JSON.stringify(await renderMergeRequest(ctx, actor, opened, options)),
    (actor, opened, options) => `${callerKey(actor)} ${opened.mergeRequest.id} ${options.includeDivergedCommitsCount === true} ${options.withLabelsDetails === true}`,
  );
  const renderPage = async (scope: MergeRequestListScope, page: { limit: number; offset: number }, options: ListOptions) => {
    const result = await mergeRequests.listPage(scope, page);
    return { body: JSON.stringify(await renderList(ctx, result.mergeRequests, options)), total: result.total };
  };
  // The rows depend on the viewer, not on how it authenticated; a filter reading a table no
  // write announces is never kept (listReadsWatchedOnly).
  const listAnswer = renderedAnswers(ctx.watch, renderPage, (scope, page, options) => JSON.stringify([scope.filter, scope.viewer, page, options]), { maxEntries: 200 });
  const listPage = (scope: MergeRequestListScope, page: { limit: number; offset: number }, options: ListOptions) =>
    listReadsWatchedOnly(scope.filter, scope.viewer) ? listAnswer(scope, page, options) : renderPage(scope, page, options);

  // Signed-in callers see their own by default; anyone may ask for scope=all (GitLab's authenticate! unless scope=all).
  app.get('/merge_requests', async (request, reply) => {
    const params = input(request);
    const filter = parseListFilter(params, { scope: 'created_by_me' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const answer = await listPage(await mergeRequests.listScope(request.actor, filter), page, listOptions(params));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, answer.total));
    return sendJson(reply, answer.body);
  });

  app.get(base, async (request, reply) => {
    const params = input(request);
    const filter = parseListFilter(params, { scope: 'all' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const answer = await listPage(await mergeRequests.listScope(request.actor, filter, pathParam(request, 'id')), page, listOptions(params));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, answer.total));
    return sendJson(reply, answer.body);
  });

  app.post(base, async (request, reply) => {
    const actor = signedIn(request);
    const opened = await mergeRequests.create(actor, pathParam(request, 'id'), parseCreate(input(request)));
    return reply.status(201).send(await renderMergeRequest(ctx, actor, opened));
  });

  app.get(`${base}/:iid`, async (request, reply) => {
    const opened = await mergeRequests.open(...mergeRequestRef(request));
    const params = input(request);
    const body = await detailAnswer(request.actor, opened, {
      includeDivergedCommitsCount: optionalBool(params, 'include_diverged_commits_count') === true,
      withLabelsDetails: optionalBool(params, 'with_labels_details') === true,
    });
    return sendJson(reply, body);
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
