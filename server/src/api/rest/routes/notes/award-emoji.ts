import type { FastifyInstance } from 'fastify';
import type { AwardsView } from '../../../../domains/notes/award-emoji.service.js';
import { signedIn, type RestContext } from '../../context.js';
import { awardEmojiEntity } from '../../entities/notes.js';
import { paginationHeaders, parsePage, requestUrl, type Page } from '../../pagination.js';
import { Input, Pagination, routes, Str } from '../../input/route-kit.js';
import { MergeRequestPath } from '../merge-requests/input.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { AwardId, NoteId } from './input.js';

/**
 * Pages of the notes' awards hold up to 1,000 (GitLab's lists stop at 100): an award is a small
 * row, and a merge request with thousands of them then loads in a few requests, not dozens.
 */
export const MAX_NOTES_AWARDS_PER_PAGE = 1000;

function bulkPage(params: { page?: number; per_page?: number }): Page {
  const page = parsePage({ page: params.page });
  const raw = params.per_page ?? page.perPage;
  const perPage = raw > 0 ? Math.min(raw, MAX_NOTES_AWARDS_PER_PAGE) : page.perPage;
  return { page: page.page, perPage, limit: perPage, offset: (page.page - 1) * perPage };
}

/** Award emoji on a merge request and on its notes: doc/api/emoji_reactions.md. */
export function awardEmojiRoutes(app: FastifyInstance, ctx: RestContext<'awardEmoji'>): void {
  const { awardEmoji } = ctx.services;
  const r = routes(app);
  const render = (view: AwardsView) => view.awards.map((award) => awardEmojiEntity(award, { users: view.users, urls: ctx.urls }));

  // Ours, not GitLab's: the awards of every note of the merge request in one paginated list
  // (GitLab's web app reads them inside each note), so the Activity section needs no request per note.
  r.get('/projects/:id/merge_requests/:iid/notes_award_emoji', Input({ ...MergeRequestPath, ...Pagination }), async (params, request, reply) => {
    const page = bulkPage(params);
    const view = await awardEmoji.listOfNotes(mergeRequestRef(request, params), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
    return render(view);
  });

  // The same four routes on the merge request and on each of its notes.
  const onMergeRequest = { ...MergeRequestPath };
  const onNote = { ...MergeRequestPath, note_id: NoteId };
  for (const [base, path] of [
    ['/projects/:id/merge_requests/:iid/award_emoji', onMergeRequest],
    ['/projects/:id/merge_requests/:iid/notes/:note_id/award_emoji', onNote],
  ] as const) {
    const noteOf = (params: object) => ('note_id' in params && typeof params.note_id === 'number' ? params.note_id : null);
    const OneAward = Input({ ...path, award_id: AwardId });

    r.get(base, Input({ ...path, ...Pagination }), async (params, request, reply) => {
      const page = parsePage(params);
      const view = await awardEmoji.list(mergeRequestRef(request, params), noteOf(params), page);
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
      return render(view);
    });

    r.get(`${base}/:award_id`, OneAward, async (params, request) => render(await awardEmoji.get(mergeRequestRef(request, params), noteOf(params), params.award_id))[0]);

    r.post(base, Input({ ...path, name: Str() }), async (params, request, reply) => {
      signedIn(request);
      const view = await awardEmoji.award(mergeRequestRef(request, params), noteOf(params), params.name);
      return reply.status(201).send(render(view)[0]);
    });

    r.delete(`${base}/:award_id`, OneAward, async (params, request, reply) => {
      signedIn(request);
      await awardEmoji.remove(mergeRequestRef(request, params), noteOf(params), params.award_id);
      return reply.status(204).send();
    });
  }
}
