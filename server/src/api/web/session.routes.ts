import type { FastifyInstance } from 'fastify';
import { parseSignInRequest, SESSION_COOKIE } from '@tributary/contracts';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import { assertCsrf } from '../rest/authenticate.js';
import type { RestContext } from '../rest/context.js';
import { userFull } from '../rest/entities/users.js';
import { SESSION_TTL_DAYS } from '../../domains/sessions/sessions.service.js';

/**
 * The web app's sign-in calls. Signing in takes JSON only: a cross-site
 * HTML form cannot send application/json without a CORS preflight, which
 * we never grant, so login CSRF is closed too.
 */
export function sessionRoutes(app: FastifyInstance, ctx: RestContext<'sessions'>): void {
  const cookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: SESSION_TTL_DAYS * 86_400 });

  app.post('/-/session', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/json')) throw new ForbiddenError('403 Forbidden - JSON required');
    const credentials = parseSignInRequest(request.body);
    if (!credentials) throw new ValidationError('400 (Bad request) "login" and "password" are required');
    const { sessionId, session } = await ctx.services.sessions.signIn(credentials.login, credentials.password, request.ip);
    reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions(ctx.externalUrl.startsWith('https:')));
    return reply.status(201).send({ user: userFull(session.user, ctx.urls), csrf_token: session.csrfToken });
  });

  app.get('/-/session', async (request) => {
    const sessionId = request.cookies[SESSION_COOKIE];
    const session = sessionId ? await ctx.services.sessions.find(sessionId) : undefined;
    if (!session) throw new UnauthorizedError();
    return { user: userFull(session.user, ctx.urls), csrf_token: session.csrfToken };
  });

  app.delete('/-/session', async (request, reply) => {
    const sessionId = request.cookies[SESSION_COOKIE];
    const session = sessionId ? await ctx.services.sessions.find(sessionId) : undefined;
    if (session && sessionId) {
      assertCsrf(request, session.csrfToken, ctx.externalUrl);
      await ctx.services.sessions.signOut(sessionId);
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
}
