import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { personalAccessToken } from '../entities/tokens.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { oneOf, optionalInt, optionalString, optionalStringArray } from '../params.js';

function tokenInput(params: Record<string, unknown>) {
  return {
    name: optionalString(params, 'name'),
    scopes: optionalStringArray(params, 'scopes'),
    expires_at: optionalString(params, 'expires_at') ?? null,
  };
}

function numericId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new NotFoundError('Token');
  return Number(raw);
}

export function tokenRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { tokens } = ctx.services;

  app.post('/user/personal_access_tokens', async (request, reply) => {
    const actor = signedIn(request);
    const created = await tokens.create(actor, actor.user.id, tokenInput(input(request)));
    return reply.status(201).send({ ...personalAccessToken(created), token: created.token });
  });

  app.post('/users/:id/personal_access_tokens', async (request, reply) => {
    const actor = signedIn(request);
    const created = await tokens.create(actor, numericId(pathParam(request, 'id')), tokenInput(input(request)));
    return reply.status(201).send({ ...personalAccessToken(created), token: created.token });
  });

  app.get('/personal_access_tokens', async (request, reply) => {
    const params = input(request);
    const page = parsePage(params);
    const state = oneOf(params, 'state', ['active', 'inactive', 'all'] as const, 'all');
    const result = await tokens.list(signedIn(request), {
      userId: optionalInt(params, 'user_id'),
      state: state === 'all' ? undefined : state,
      limit: page.limit,
      offset: page.offset,
    });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.tokens.map(personalAccessToken);
  });

  app.get('/personal_access_tokens/self', async (request) => {
    const actor = signedIn(request);
    if (actor.via !== 'token' || actor.tokenId === undefined) throw new ValidationError('400 Bad request - not authenticated with a token');
    const self = await tokens.get(actor, actor.tokenId!);
    return personalAccessToken(self);
  });

  app.get('/personal_access_tokens/:id', async (request) => personalAccessToken(await tokens.get(signedIn(request), numericId(pathParam(request, 'id')))));

  app.delete('/personal_access_tokens/:id', async (request, reply) => {
    await tokens.revoke(signedIn(request), numericId(pathParam(request, 'id')));
    return reply.status(204).send();
  });
}
