import type { FastifyInstance, FastifyRequest } from 'fastify';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { draftNoteEntity } from '../../entities/notes.js';
import { optionalString } from '../../params.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { parseCreateDraft, parseId, parseUpdateDraft } from './input.js';

/** Draft notes of a review: doc/api/draft_notes.md. Signed-in callers only; drafts are their author's. */
export function draftNoteRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { draftNotes } = ctx.services;
  const base = '/projects/:id/merge_requests/:iid/draft_notes';
  const draftId = (request: FastifyRequest) => parseId(pathParam(request, 'draft_note_id'));

  app.get(base, async (request) => {
    signedIn(request);
    return (await draftNotes.list(mergeRequestRef(request))).map(draftNoteEntity);
  });

  app.get(`${base}/:draft_note_id`, async (request) => {
    signedIn(request);
    return draftNoteEntity(await draftNotes.get(mergeRequestRef(request), draftId(request)));
  });

  app.post(base, async (request, reply) => {
    signedIn(request);
    return reply.status(201).send(draftNoteEntity(await draftNotes.create(mergeRequestRef(request), parseCreateDraft(input(request)))));
  });

  // GitLab's route is PUT; gitbeaker's MergeRequestDraftNotes.edit() sends POST.
  const update = async (request: FastifyRequest) => {
    signedIn(request);
    return draftNoteEntity(await draftNotes.update(mergeRequestRef(request), draftId(request), parseUpdateDraft(input(request))));
  };
  app.put(`${base}/:draft_note_id`, update);
  app.post(`${base}/:draft_note_id`, update);

  app.delete(`${base}/:draft_note_id`, async (request, reply) => {
    signedIn(request);
    await draftNotes.remove(mergeRequestRef(request), draftId(request));
    return reply.status(204).send();
  });

  app.put(`${base}/:draft_note_id/publish`, async (request, reply) => {
    signedIn(request);
    await draftNotes.publish(mergeRequestRef(request), draftId(request));
    return reply.status(204).send();
  });

  app.post(`${base}/bulk_publish`, async (request, reply) => {
    signedIn(request);
    // `note`: the review's summary (GitLab's web publish takes it; REST clients send none)
    await draftNotes.publishAll(mergeRequestRef(request), optionalString(input(request), 'note'));
    return reply.status(204).send();
  });
}
