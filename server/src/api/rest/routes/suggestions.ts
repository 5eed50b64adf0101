import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { suggestionEntity } from '../entities/suggestions.js';
import { optionalString, type Params } from '../params.js';
import { parseId } from './notes/input.js';

/** Grape's Array[Integer] with CommaSeparatedToIntegerArray: `[1, 2]`, `ids[]=1&ids[]=2` or `"1,2"`. */
export function parseIds(params: Params): number[] {
  const value = params.ids;
  if (value === undefined || value === null || value === '') throw ValidationError.missing('ids');
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  const ids = items.map((item) => (typeof item === 'number' ? item : /^\s*\d{1,15}\s*$/.test(String(item)) ? Number(item) : Number.NaN));
  if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id))) throw new ValidationError('400 (Bad request) "ids" is invalid');
  return ids;
}

/** Applying suggested changes: doc/api/suggestions.md. */
export function suggestionRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { suggestions } = ctx.services;

  app.put('/suggestions/batch_apply', async (request) => {
    const actor = signedIn(request);
    const params = input(request);
    const applied = await suggestions.apply(actor, parseIds(params), { commitMessage: optionalString(params, 'commit_message'), batch: true });
    return applied.map(suggestionEntity);
  });

  app.put('/suggestions/:id/apply', async (request) => {
    const actor = signedIn(request);
    const params = input(request);
    const [applied] = await suggestions.apply(actor, [parseId(pathParam(request, 'id'))], { commitMessage: optionalString(params, 'commit_message'), batch: false });
    return suggestionEntity(applied!);
  });
}
