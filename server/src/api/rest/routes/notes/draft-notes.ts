import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../../context.js';
import { draftNoteEntity } from '../../entities/notes.js';
import { Bool, Enum, Input, Optional, routes, Str } from '../../input/route-kit.js';
import { MergeRequestPath } from '../merge-requests/input.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { DraftCreate, draftCreateInput, DraftNoteId, DraftUpdate, draftUpdateInput } from './input.js';

/** Draft notes of a review: doc/api/draft_notes.md. Signed-in callers only; drafts are their author's. */
export function draftNoteRoutes(app: FastifyInstance, ctx: RestContext<'draftNotes' | 'reviews'>): void {
  const { draftNotes } = ctx.services;
  const r = routes(app);
  const base = '/projects/:id/merge_requests/:iid/draft_notes';
  const OneDraft = Input({ ...MergeRequestPath, draft_note_id: DraftNoteId });

  r.get(base, Input(MergeRequestPath), async (params, request) => {
    signedIn(request);
    return (await draftNotes.list(mergeRequestRef(request, params))).map(draftNoteEntity);
  });

  r.get(`${base}/:draft_note_id`, OneDraft, async (params, request) => {
    signedIn(request);
    return draftNoteEntity(await draftNotes.get(mergeRequestRef(request, params), params.draft_note_id));
  });

  r.post(base, DraftCreate, async (params, request, reply) => {
    signedIn(request);
    return reply.status(201).send(draftNoteEntity(await draftNotes.create(mergeRequestRef(request, params), draftCreateInput(params))));
  });

  // GitLab's route is PUT; gitbeaker's MergeRequestDraftNotes.edit() sends POST.
  for (const method of ['put', 'post'] as const) {
    r[method](`${base}/:draft_note_id`, DraftUpdate, async (params, request) => {
      signedIn(request);
      return draftNoteEntity(await draftNotes.update(mergeRequestRef(request, params), params.draft_note_id, draftUpdateInput(params)));
    });
  }

  r.delete(`${base}/:draft_note_id`, OneDraft, async (params, request, reply) => {
    signedIn(request);
    await draftNotes.remove(mergeRequestRef(request, params), params.draft_note_id);
    return reply.status(204).send();
  });

  r.put(`${base}/:draft_note_id/publish`, OneDraft, async (params, request, reply) => {
    signedIn(request);
    await draftNotes.publish(mergeRequestRef(request, params), params.draft_note_id);
    return reply.status(204).send();
  });

  // `note`: the review's summary; `reviewer_state` the reviewer's verdict, `approve` approving with
  // it (GitLab's web publish takes them; REST clients send none)
  r.post(
    `${base}/bulk_publish`,
    Input({ ...MergeRequestPath, note: Optional(Str()), reviewer_state: Optional(Enum(['reviewed', 'requested_changes', 'approved'] as const)), approve: Optional(Bool()), approval_password: Optional(Str()) }),
    async (params, request, reply) => {
      signedIn(request);
      const verdict = params.approve ? 'approved' : params.reviewer_state;
      if (verdict) await ctx.services.reviews.precheck([request.actor, params.id, params.iid], verdict, { approvalPassword: params.approval_password });
      await draftNotes.publishAll(mergeRequestRef(request, params), params.note);
      if (verdict) await ctx.services.reviews.submit([request.actor, params.id, params.iid], verdict, { approvalPassword: params.approval_password });
      return reply.status(204).send();
    },
  );
}
