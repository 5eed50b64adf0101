import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AwardsView } from '../../../../domains/notes/award-emoji.service.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { awardEmojiEntity } from '../../entities/notes.js';
import { paginationHeaders, parsePage, requestUrl } from '../../pagination.js';
import { requiredString } from '../../params.js';
import { mergeRequestRef } from '../merge-requests/merge-requests.js';
import { parseId } from './input.js';

/** Award emoji on a merge request and on its notes: doc/api/emoji_reactions.md. */
export function awardEmojiRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { awardEmoji } = ctx.services;
  const render = (view: AwardsView) => view.awards.map((award) => awardEmojiEntity(award, { users: view.users, urls: ctx.urls }));
  const awardId = (request: FastifyRequest) => parseId(pathParam(request, 'award_id'));

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
