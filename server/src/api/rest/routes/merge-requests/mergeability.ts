import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../../../auth/actor.js';
import type { BlockingReference, BlockView } from '../../../../domains/merge-requests/mergeability/index.js';
import { NotFoundError, ValidationError } from '../../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { mergeRequestDependency } from '../../entities/merge-requests.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { optionalInt, optionalString, type Params } from '../../params.js';
import { mergeRequestRef } from './merge-requests.js';

const base = '/projects/:id/merge_requests/:iid';

/** `blocking_merge_request_id` (global) or `blocking_merge_request_iid` [+ `blocking_project_id`], exactly one. */
export function parseBlockingReference(params: Params): BlockingReference {
  const id = optionalInt(params, 'blocking_merge_request_id');
  const iid = optionalInt(params, 'blocking_merge_request_iid');
  if (id !== undefined && iid !== undefined) throw new ValidationError('blocking_merge_request_id, blocking_merge_request_iid are mutually exclusive');
  if (id !== undefined) return { id };
  if (iid !== undefined) {
    const project = optionalString(params, 'blocking_project_id');
    return project === undefined || project === '' ? { iid } : { iid, project };
  }
  throw new ValidationError('blocking_merge_request_id, blocking_merge_request_iid are missing, exactly one parameter must be provided');
}

function blockIdOf(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new NotFoundError('Block');
  return Number(value);
}

/**
 * The merge ref and merge request dependencies: GET …/merge_ref (GitLab rechecks the trial
 * merge synchronously), and GitLab's merge request dependencies API (…/blocks, …/blockees).
 */
export function mergeabilityRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { mergeRequests, mergeability, mergeRequestViews } = ctx.services;

  async function render(views: BlockView[]) {
    const requests = views.flatMap((view) => [view.blocking, view.blocked]).filter((mr) => mr !== null);
    const byId = new Map((await mergeRequestViews.views([...new Map(requests.map((mr) => [mr.id, mr])).values()])).map((view) => [view.mergeRequest.id, view]));
    return views.map((view) =>
      mergeRequestDependency(view.block, { blocking: view.blocking && byId.get(view.blocking.id)!, blocked: view.blocked && byId.get(view.blocked.id)! }, ctx.urls),
    );
  }
  const open = (actor: Actor, request: Parameters<typeof mergeRequestRef>[0]) => {
    const [, id, iid] = mergeRequestRef(request);
    return mergeRequests.open(actor, id, iid);
  };

  // gitbeaker's MergeRequests.mergeToDefault() sends PUT to the same path: both answer.
  for (const method of ['GET', 'PUT'] as const) {
    app.route({
      method,
      url: `${base}/merge_ref`,
      handler: async (request) => {
        const opened = await open(request.actor, request);
        return { commit_id: await mergeability.mergeRefCommit(opened.mergeRequest.id) };
      },
    });
  }

  app.get(`${base}/blocks`, async (request, reply) => {
    const opened = await open(request.actor, request);
    const page = parsePage(input(request));
    const all = await mergeability.blocks.list(request.actor, opened);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, all.length));
    return render(all.slice(page.offset, page.offset + page.limit));
  });

  app.get(`${base}/blocks/:block_id`, async (request) => {
    const opened = await open(request.actor, request);
    return (await render([await mergeability.blocks.get(request.actor, opened, blockIdOf(pathParam(request, 'block_id')))]))[0];
  });

  app.post(`${base}/blocks`, async (request, reply) => {
    const actor = signedIn(request);
    const opened = await open(actor, request);
    const created = await mergeability.blocks.create(actor, opened, parseBlockingReference(input(request)));
    return reply.status(201).send((await render([created]))[0]);
  });

  app.delete(`${base}/blocks/:block_id`, async (request, reply) => {
    const actor = signedIn(request);
    const opened = await open(actor, request);
    await mergeability.blocks.remove(actor, opened, blockIdOf(pathParam(request, 'block_id')));
    return reply.status(204).send();
  });

  app.get(`${base}/blockees`, async (request, reply) => {
    const opened = await open(request.actor, request);
    const page = parsePage(input(request));
    const all = await mergeability.blocks.blockees(request.actor, opened);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, all.length));
    return render(all.slice(page.offset, page.offset + page.limit));
  });
}
