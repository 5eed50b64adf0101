import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AwardsView } from '../../../../domains/notes/award-emoji.service.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { awardEmojiEntity } from '../../entities/notes.js';
import { paginationHeaders, parsePage, requestUrl, type Page } from '../../pagination.js';
import { requiredString, type Params } from '../../params.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { parseId } from './input.js';

/**
 * Pages of the notes' awards hold up to 1,000 (GitLab's lists stop at 100): an award is a small
 * row, and a merge request with thousands of them then loads in a few requests, not dozens.
 */
export const MAX_NOTES_AWARDS_PER_PAGE = 1000;

function parseBulkPage(params: Params): Page {
  const page = parsePage({ ...params, per_page: undefined });
  const raw = Number(params.per_page ?? page.perPage);
  const perPage = Number.isSafeInteger(raw) && raw > 0 ? Math.min(raw, MAX_NOTES_AWARDS_PER_PAGE) : page.perPage;
  return { page: page.page, perPage, limit: perPage, offset: (page.page - 1) * perPage };
}

/** Award emoji on a merge request and on its notes: doc/api/emoji_reactions.md. */
export function awardEmojiRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { awardEmoji } = ctx.services;
  const render = (view: AwardsView) => view.awards.map((award) => awardEmojiEntity(award, { users: view.users, urls: ctx.urls }));
  const awardId = (request: FastifyRequest) => parseId(pathParam(request, 'award_id'));

  // Ours, not GitLab's: the awards of every note of the merge request in one paginated list
  // (GitLab's web app reads them inside each note), so the Activity section needs no request per note.
  app.get('/projects/:id/merge_requests/:iid/notes_award_emoji', async (request, reply) => {
    const page = parseBulkPage(input(request));
    const view = await awardEmoji.listOfNotes(mergeRequestRef(request), page);
    reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
    return render(view);
  });

  // The same four routes on the merge request and on each of its notes.
  for (const [base, noteOf] of [
    ['/projects/:id/merge_requests/:iid/award_emoji', () => null],
    ['/projects/:id/merge_requests/:iid/notes/:note_id/award_emoji', (request: FastifyRequest) => parseId(pathParam(request, 'note_id'))],
  ] as const) {
    app.get(base, async (request, reply) => {
      const page = parsePage(input(request));
      const view = await awardEmoji.list(mergeRequestRef(request), noteOf(request), page);
      reply.headers(paginationHeaders(requestUrl(request, ctx.externalUrl), page, view.total));
      return render(view);
    });

    app.get(`${base}/:award_id`, async (request) => render(await awardEmoji.get(mergeRequestRef(request), noteOf(request), awardId(request)))[0]);

    app.post(base, async (request, reply) => {
      signedIn(request);
      const view = await awardEmoji.award(mergeRequestRef(request), noteOf(request), requiredString(input(request), 'name'));
      return reply.status(201).send(render(view)[0]);
    });

    app.delete(`${base}/:award_id`, async (request, reply) => {
      signedIn(request);
      await awardEmoji.remove(mergeRequestRef(request), noteOf(request), awardId(request));
      return reply.status(204).send();
    });
  }
}
