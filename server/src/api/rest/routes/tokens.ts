import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../platform/errors.js';
import { signedIn, type RestContext } from '../context.js';
import { personalAccessToken } from '../entities/tokens.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Enum, Input, Int, List, Optional, Pagination, PathId, routes, Str, type Static } from '../input/route-kit.js';

const TokenId = PathId('Token');
const TokenInput = { name: Optional(Str()), scopes: Optional(List(Str())), expires_at: Optional(Str({ description: 'YYYY-MM-DD' })) };

function tokenInput(params: Static<ReturnType<typeof Input<typeof TokenInput>>>) {
  return { name: params.name, scopes: params.scopes, expires_at: params.expires_at ?? null };
}

export function tokenRoutes(app: FastifyInstance, ctx: RestContext<'tokens'>): void {
  const { tokens } = ctx.services;
  const r = routes(app);

  r.post('/user/personal_access_tokens', Input(TokenInput), async (params, request, reply) => {
    const actor = signedIn(request);
    const created = await tokens.create(actor, actor.user.id, tokenInput(params));
    return reply.status(201).send({ ...personalAccessToken(created), token: created.token });
  });

  r.post('/users/:id/personal_access_tokens', Input({ id: TokenId, ...TokenInput }), async (params, request, reply) => {
    const created = await tokens.create(signedIn(request), params.id, tokenInput(params));
    return reply.status(201).send({ ...personalAccessToken(created), token: created.token });
  });

  r.get('/personal_access_tokens', Input({ ...Pagination, user_id: Optional(Int()), state: Optional(Enum(['active', 'inactive', 'all'] as const)) }), async (params, request, reply) => {
    const page = parsePage(params);
    const state = params.state === 'all' ? undefined : params.state;
    const result = await tokens.list(signedIn(request), { userId: params.user_id, state, limit: page.limit, offset: page.offset });
    reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
    return result.tokens.map(personalAccessToken);
  });

  r.get('/personal_access_tokens/self', Input({}), async (_params, request) => {
    const actor = signedIn(request);
    if (actor.via !== 'token' || actor.tokenId === undefined) throw new ValidationError('400 Bad request - not authenticated with a token');
    return personalAccessToken(await tokens.get(actor, actor.tokenId));
  });

  r.get('/personal_access_tokens/:id', Input({ id: TokenId }), async ({ id }, request) => personalAccessToken(await tokens.get(signedIn(request), id)));

  r.delete('/personal_access_tokens/:id', Input({ id: TokenId }), async ({ id }, request, reply) => {
    await tokens.revoke(signedIn(request), id);
    return reply.status(204).send();
  });
}
