import type { FastifyInstance } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { parseCreateNote, parseId, parseNoteOrder, parseUpdateNote } from './input.js';
import { renderNotes } from './render.js';

/** Notes of a merge request: doc/api/notes.md. */
export function noteRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { notes } = ctx.services;
  const base = '/projects/:id/merge_requests/:iid/notes';
  const noteId = (request: Parameters<typeof pathParam>[0]) => parseId(pathParam(request, 'note_id'));

  app.get(base, async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const view = await notes.list(mergeRequestRef(request), parseNoteOrder(params), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
    return renderNotes(ctx, view);
  });

  app.get(`${base}/:note_id`, async (request) => renderNotes(ctx, await notes.get(mergeRequestRef(request), noteId(request)))[0]);

  app.post(base, async (request, reply) => {
    signedIn(request);
    const view = await notes.create(mergeRequestRef(request), parseCreateNote(input(request)));
    return reply.status(201).send(renderNotes(ctx, view)[0]);
  });

  app.put(`${base}/:note_id`, async (request) => {
    signedIn(request);
    return renderNotes(ctx, await notes.update(mergeRequestRef(request), noteId(request), parseUpdateNote(input(request))))[0];
  });

  app.delete(`${base}/:note_id`, async (request, reply) => {
    signedIn(request);
    await notes.remove(mergeRequestRef(request), noteId(request));
    return reply.status(204).send();
  });
}
