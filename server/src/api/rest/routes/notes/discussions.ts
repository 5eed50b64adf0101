import type { FastifyInstance, FastifyRequest } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { parseCreateDiscussion, parseCreateNote, parseDiscussionNoteUpdate, parseDiscussionPage, parseId, parseResolved } from './input.js';
import { keysetHeaders, renderDiscussions, renderNotes } from './render.js';

/** Threads of a merge request and their notes: doc/api/discussions.md. */
export function discussionRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { discussions, notes } = ctx.services;
  const base = '/projects/:id/merge_requests/:iid/discussions';
  const discussionId = (request: FastifyRequest) => pathParam(request, 'discussion_id');
  const inDiscussion = (request: FastifyRequest) => ({ discussionId: discussionId(request) });
  const noteId = (request: FastifyRequest) => parseId(pathParam(request, 'note_id'));

  app.get(base, async (request, reply) => {
    const params = input(request);
    const page = parseDiscussionPage(params);
    const view = await discussions.list(mergeRequestRef(request), page);
    const url = requestUrl(request, ctx.externalUrl);
    reply.headers(page.kind === 'offset' ? paginationHeaders(url, parsePage(params), view.total ?? 0) : keysetHeaders(url, page.limit, view.next));
    return renderDiscussions(ctx, view);
  });

  app.get(`${base}/:discussion_id`, async (request) => renderDiscussions(ctx, await discussions.get(mergeRequestRef(request), discussionId(request)))[0]);

  // gitbeaker sends this as multipart/form-data with `position[...]` keys when there is a position.
  app.post(base, async (request, reply) => {
    signedIn(request);
    const view = await discussions.create(mergeRequestRef(request), parseCreateDiscussion(input(request)));
    return reply.status(201).send(renderDiscussions(ctx, view)[0]);
  });

  // gitbeaker's resolve() sends `resolved` in the query string.
  app.put(`${base}/:discussion_id`, async (request) => {
    signedIn(request);
    return renderDiscussions(ctx, await discussions.resolve(mergeRequestRef(request), discussionId(request), parseResolved(input(request))))[0];
  });

  app.get(`${base}/:discussion_id/notes`, async (request) => renderDiscussions(ctx, await discussions.get(mergeRequestRef(request), discussionId(request)))[0]!.notes);

  app.post(`${base}/:discussion_id/notes`, async (request, reply) => {
    signedIn(request);
    const view = await discussions.reply(mergeRequestRef(request), discussionId(request), parseCreateNote(input(request)).body);
    return reply.status(201).send(renderNotes(ctx, view)[0]);
  });

  app.get(`${base}/:discussion_id/notes/:note_id`, async (request) => renderNotes(ctx, await notes.get(mergeRequestRef(request), noteId(request), inDiscussion(request)))[0]);

  app.put(`${base}/:discussion_id/notes/:note_id`, async (request) => {
    signedIn(request);
    const change = parseDiscussionNoteUpdate(input(request));
    const ref = mergeRequestRef(request);
    const view =
      change.kind === 'resolved'
        ? await notes.resolve(ref, noteId(request), change.resolved, inDiscussion(request))
        : await notes.update(ref, noteId(request), change, inDiscussion(request));
    return renderNotes(ctx, view)[0];
  });

  app.delete(`${base}/:discussion_id/notes/:note_id`, async (request, reply) => {
    signedIn(request);
    await notes.remove(mergeRequestRef(request), noteId(request), inDiscussion(request));
    return reply.status(204).send();
  });
}
