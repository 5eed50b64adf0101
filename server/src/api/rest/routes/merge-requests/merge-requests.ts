import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { MergeRequest } from '../../../../domains/merge-requests/merge-request.js';
import { listReadsWatchedOnly } from '../../../../domains/merge-requests/cached-reads.js';
import type { MergeRequestListScope, OpenedMergeRequest } from '../../../../domains/merge-requests/merge-requests.service.js';
import { signedIn, type RestContext } from '../../context.js';
import { mergeRequestBasic, mergeRequestFull, mergeRequestSimple, type FullEntityOptions } from '../../entities/merge-requests.js';
import { pipelineBasic, pipelineEntity } from '../../entities/pipelines.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Bool, Input, NamespacedRef, Optional, routes, type Static } from '../../input/route-kit.js';
import { callerKey, renderedAnswers } from '../../rendered-answers.js';
import { createInput, listFilter, MergeRequestCreate, MergeRequestList, MergeRequestPath, MergeRequestUpdate, updateInput } from './input.js';

/** The caller, project and iid of a merge request route (its declared `MergeRequestPath`). */
export function mergeRequestRef(request: FastifyRequest, path: { id: string; iid: number }): [Actor, string, number] {
  return [request.actor, path.id, path.iid];
}

export async function renderMergeRequest(ctx: RestContext<'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'pipelines'>, actor: Actor, opened: OpenedMergeRequest, options: FullEntityOptions = {}) {
  const [detail, head] = await Promise.all([ctx.services.mergeRequestViews.detail(actor, opened), ctx.services.mergeRequestPipelines.headPipelineFor(actor, opened)]);
  const entity = mergeRequestFull(detail, ctx.urls, options);
  if (!head) return entity;
  // GitLab's `pipeline` (PipelineBasic) and `head_pipeline` (Pipeline): the merge request's pipeline for its diff head.
  const facts = await ctx.services.pipelines.describe([head.pipeline]);
  return Object.assign(entity, { pipeline: pipelineBasic(head.pipeline, head.project, ctx.urls), head_pipeline: pipelineEntity(head.pipeline, head.project, ctx.urls, facts) });
}

interface ListOptions {
  simple: boolean;
  withLabelsDetails: boolean;
}

const listOptions = (params: Static<typeof MergeRequestList>): ListOptions => ({ simple: params.view === 'simple', withLabelsDetails: params.with_labels_details === true });

async function renderList(ctx: RestContext<'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'pipelines'>, mergeRequests: MergeRequest[], options: ListOptions) {
  if (options.simple) return mergeRequests.map((mr) => mergeRequestSimple(mr, ctx.urls));
  return (await ctx.services.mergeRequestViews.views(mergeRequests)).map((view) => mergeRequestBasic(view, ctx.urls, { withLabelsDetails: options.withLabelsDetails }));
}

/** A serialised answer, as GitLab types it (exactly application/json). */
const sendJson = (reply: FastifyReply, body: string) => reply.type('application/json').send(body);

/** Listing, opening, reading, editing and deleting merge requests: doc/api/merge_requests.md. */
export function mergeRequestCrudRoutes(app: FastifyInstance, ctx: RestContext<'mergeRequestPipelines' | 'mergeRequestViews' | 'mergeRequests' | 'pipelines'>): void {
  const { mergeRequests } = ctx.services;
  const r = routes(app);
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
  r.get('/merge_requests', MergeRequestList, async (params, request, reply) => {
    const filter = listFilter(params, { scope: 'created_by_me' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const answer = await listPage(await mergeRequests.listScope(request.actor, filter), page, listOptions(params));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, answer.total));
    return sendJson(reply, answer.body);
  });

  r.get(base, Input({ ...MergeRequestList.properties, id: NamespacedRef() }), async (params, request, reply) => {
    const filter = listFilter(params, { scope: 'all' });
    if (filter.scope !== 'all') signedIn(request);
    const page = parsePage(params);
    const answer = await listPage(await mergeRequests.listScope(request.actor, filter, params.id), page, listOptions(params));
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, answer.total));
    return sendJson(reply, answer.body);
  });

  r.post(base, MergeRequestCreate, async (params, request, reply) => {
    const actor = signedIn(request);
    const opened = await mergeRequests.create(actor, params.id, createInput(params));
    return reply.status(201).send(await renderMergeRequest(ctx, actor, opened));
  });

  r.get(`${base}/:iid`, Input({ ...MergeRequestPath, include_diverged_commits_count: Optional(Bool()), with_labels_details: Optional(Bool()), include_rebase_in_progress: Optional(Bool()) }), async (params, request, reply) => {
    const opened = await mergeRequests.open(...mergeRequestRef(request, params));
    const body = await detailAnswer(request.actor, opened, {
      includeDivergedCommitsCount: params.include_diverged_commits_count === true,
      withLabelsDetails: params.with_labels_details === true,
    });
    return sendJson(reply, body);
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
