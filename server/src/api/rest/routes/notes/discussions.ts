import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { BlankableStr, Bool, Input, routes } from '../../input/route-kit.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { DiscussionCreate, discussionCreateInput, DiscussionList, discussionNoteChange, DiscussionNoteUpdate, discussionPage, DiscussionPath, NoteId } from './input.js';
import { keysetHeaders, renderDiscussions, renderNotes } from './render.js';

/** Threads of a merge request and their notes: doc/api/discussions.md. */
export function discussionRoutes(app: FastifyInstance, ctx: RestContext<'discussions' | 'notes'>): void {
  const { discussions, notes } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests/:iid/discussions';
  const Discussion = Input(DiscussionPath);
  const DiscussionNote = Input({ ...DiscussionPath, note_id: NoteId });

  r.get(base, DiscussionList, async (params, request, reply) => {
    const page = discussionPage(params);
    const view = await discussions.list(mergeRequestRef(request, params), page);
    const url = requestUrl(request, ctx.externalUrl);
    reply.headers(page.kind === 'offset' ? paginationHeaders(url, parsePage(params), view.total ?? 0) : keysetHeaders(url, page.limit, view.next));
    return renderDiscussions(ctx, view);
  });

  r.get(`${base}/:discussion_id`, Discussion, async (params, request) => renderDiscussions(ctx, await discussions.get(mergeRequestRef(request, params), params.discussion_id))[0]);

  // gitbeaker sends this as multipart/form-data with `position[...]` keys when there is a position.
  r.post(base, DiscussionCreate, async (params, request, reply) => {
    signedIn(request);
    const view = await discussions.create(mergeRequestRef(request, params), discussionCreateInput(params));
    return reply.status(201).send(renderDiscussions(ctx, view)[0]);
  });

  // gitbeaker's resolve() sends `resolved` in the query string.
  r.put(`${base}/:discussion_id`, Input({ ...DiscussionPath, resolved: Bool() }), async (params, request) => {
    signedIn(request);
    return renderDiscussions(ctx, await discussions.resolve(mergeRequestRef(request, params), params.discussion_id, params.resolved))[0];
  });

  r.get(`${base}/:discussion_id/notes`, Discussion, async (params, request) => renderDiscussions(ctx, await discussions.get(mergeRequestRef(request, params), params.discussion_id))[0]!.notes);

  r.post(`${base}/:discussion_id/notes`, Input({ ...DiscussionPath, body: BlankableStr() }), async (params, request, reply) => {
    signedIn(request);
    const view = await discussions.reply(mergeRequestRef(request, params), params.discussion_id, params.body);
    return reply.status(201).send(renderNotes(ctx, view)[0]);
  });

  r.get(`${base}/:discussion_id/notes/:note_id`, DiscussionNote, async (params, request) =>
    renderNotes(ctx, await notes.get(mergeRequestRef(request, params), params.note_id, { discussionId: params.discussion_id }))[0],
  );

  r.put(`${base}/:discussion_id/notes/:note_id`, DiscussionNoteUpdate, async (params, request) => {
    signedIn(request);
    const change = discussionNoteChange(params);
    const ref = mergeRequestRef(request, params);
    const where = { discussionId: params.discussion_id };
    const view = change.kind === 'resolved' ? await notes.resolve(ref, params.note_id, change.resolved, where) : await notes.update(ref, params.note_id, change, where);
    return renderNotes(ctx, view)[0];
  });

  r.delete(`${base}/:discussion_id/notes/:note_id`, DiscussionNote, async (params, request, reply) => {
    signedIn(request);
    await notes.remove(mergeRequestRef(request, params), params.note_id, { discussionId: params.discussion_id });
    return reply.status(204).send();
  });
}
