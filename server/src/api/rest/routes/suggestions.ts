import type { FastifyInstance } from 'fastify';
import { signedIn, type RestContext } from '../context.js';
import { suggestionEntity } from '../entities/suggestions.js';
import { Id, Input, List, Optional, routes, Str } from '../input/route-kit.js';

/** Applying suggested changes: doc/api/suggestions.md. `ids`: Grape's Array[Integer] with CommaSeparatedToIntegerArray (`[1, 2]`, `ids[]=1&ids[]=2` or `"1,2"`). */
export function suggestionRoutes(app: FastifyInstance, ctx: RestContext<'suggestions'>): void {
  const { suggestions } = ctx.services;
  const r = routes(app);

  r.put('/suggestions/batch_apply', Input({ ids: List(Id(), { minItems: 1 }), commit_message: Optional(Str()) }), async (params, request) => {
    const applied = await suggestions.apply(signedIn(request), params.ids, { commitMessage: params.commit_message, batch: true });
    return applied.map(suggestionEntity);
  });

  // An id that is not a number finds no suggestion: the service's 404 in GitLab's words.
  r.put('/suggestions/:id/apply', Input({ id: Str(), commit_message: Optional(Str()) }), async (params, request) => {
    const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : Number.NaN;
    const [applied] = await suggestions.apply(signedIn(request), [id], { commitMessage: params.commit_message, batch: false });
    return suggestionEntity(applied!);
  });
}
