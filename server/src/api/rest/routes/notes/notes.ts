import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { Input, routes } from '../../input/route-kit.js';
import { MergeRequestPath } from '../merge-requests/input.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { NoteCreate, noteCreateInput, NoteId, NoteList, noteOrder, NoteUpdate, noteUpdateInput } from './input.js';
import { renderNotes } from './render.js';

/** Notes of a merge request: doc/api/notes.md. */
export function noteRoutes(app: FastifyInstance, ctx: RestContext<'notes'>): void {
  const { notes } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests/:iid/notes';
  const OneNote = Input({ ...MergeRequestPath, note_id: NoteId });

  r.get(base, NoteList, async (params, request, reply) => {
    const page = parsePage(params);
    const view = await notes.list(mergeRequestRef(request, params), noteOrder(params), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
    return renderNotes(ctx, view);
  });

  r.get(`${base}/:note_id`, OneNote, async (params, request) => renderNotes(ctx, await notes.get(mergeRequestRef(request, params), params.note_id))[0]);

  r.post(base, NoteCreate, async (params, request, reply) => {
    signedIn(request);
    const view = await notes.create(mergeRequestRef(request, params), noteCreateInput(params));
    return reply.status(201).send(renderNotes(ctx, view)[0]);
  });

  r.put(`${base}/:note_id`, NoteUpdate, async (params, request) => {
    signedIn(request);
    return renderNotes(ctx, await notes.update(mergeRequestRef(request, params), params.note_id, noteUpdateInput(params)))[0];
  });

  r.delete(`${base}/:note_id`, OneNote, async (params, request, reply) => {
    signedIn(request);
    await notes.remove(mergeRequestRef(request, params), params.note_id);
    return reply.status(204).send();
  });
}
