import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '@tributary/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/errors.js';
import { actorFor, ANONYMOUS, jobTokenActor, type Actor, type TokenScope } from '../../auth/actor.js';
import type { User } from '../../domains/users/user.js';
import { safeEqual } from '../../auth/secrets.js';
import type { SessionsService } from '../../domains/sessions/sessions.service.js';
import type { TokensService } from '../../domains/tokens/tokens.service.js';
import type { UsersRepository } from '../../domains/users/users.repository.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

/** The token a request presents, from GitLab's three places for it. */
export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers['private-token'];
  if (typeof header === 'string' && header) return header;
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.private_token ?? query?.access_token;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/**
 * Cross-site request forgery protection for cookie sessions: every
 * state-changing request must echo the session's CSRF token in a header
 * (which a cross-site form cannot set), and a browser-sent Origin must be
 * our own. Token-authenticated requests carry no ambient credentials and
 * need neither.
 */
export function assertCsrf(request: FastifyRequest, csrfToken: string, externalUrl: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !safeEqual(sent, csrfToken)) throw new ForbiddenError('403 Forbidden - CSRF token is invalid or missing');
  if (isForeignOrigin(request, externalUrl)) throw new ForbiddenError('403 Forbidden - cross-origin request refused');
}

/** A browser-sent Origin that is neither our external URL nor the host the request came to. */
export function isForeignOrigin(request: FastifyRequest, externalUrl: string): boolean {
  const origin = request.headers.origin;
  return Boolean(origin && origin !== new URL(externalUrl).origin && origin !== `${request.protocol}://${request.headers.host}`);
}

/** The user a request asks to act as (`Sudo` header or `sudo` parameter), if any. */
export function requestedSudo(request: FastifyRequest): string | undefined {
  const header = request.headers.sudo;
  if (typeof header === 'string' && header) return header;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.sudo;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/** A CI job token: GitLab's JOB-TOKEN header or `job_token` parameter. */
export function presentedJobToken(request: FastifyRequest): string | undefined {
  const header = request.headers['job-token'];
  if (typeof header === 'string' && header) return header;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.job_token;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/**
 * The API a job token may call: its own project's endpoints by numeric id (GitLab lets job
 * tokens into a list of endpoints only, and answers 401 elsewhere). Lists across projects are
 * never reachable with one, so the job-token scope cannot be widened through them.
 */
export function jobTokenMayCall(url: string, projectId: number): boolean {
  return jobTokenTarget(url) === projectId;
}

/** The project a job-token call names by numeric id (`/api/v4/projects/:id…`), or null. */
export function jobTokenTarget(url: string): number | null {
  const match = /^\/api\/v4\/projects\/(\d+)(?:[/?]|$)/.exec(url);
  return match === null ? null : Number(match[1]);
}

/** The runner's own job calls (PUT /jobs/:id, its log and artifacts) judge the job token themselves: a dead one is their 403. */
const RUNNER_JOB_ROUTES = /^\/api\/v4\/jobs\//;

export function createAuthenticator(deps: {
  tokens: Pick<TokensService, 'authenticate'>;
  /** the user and project of a running job's CI_JOB_TOKEN; null when unknown or the job has ended */
  jobTokens?: (token: string) => Promise<{ user: User; projectId: number } | null>;
  /** GitLab's job token inbound allowlist: may the job tokens of `sourceProjectId` call `projectId`'s endpoints too? */
  jobTokenAllows?: (projectId: number, sourceProjectId: number) => Promise<boolean>;
  sessions: Pick<SessionsService, 'find'>;
  users: Pick<UsersRepository, 'findById' | 'findByUsername'>;
  externalUrl: string;
}) {
  /**
   * GitLab's sudo: an administrator's token with the `sudo` scope may act as
   * another user, named by id or username; anyone else asking is refused.
   */
  async function sudo(actor: Actor, target: string): Promise<Actor> {
    if (!actor.user) throw new UnauthorizedError();
    if (!actor.user.is_admin || actor.via !== 'token' || !actor.scopes?.includes('sudo')) throw new ForbiddenError('403 Forbidden - Must be admin to use sudo');
    const user = /^\d+$/.test(target) ? await deps.users.findById(Number(target)) : await deps.users.findByUsername(target);
    if (!user || user.state !== 'active') throw new NotFoundError(`User with ID or username '${target}'`);
    return actorFor(user, 'token', actor.scopes, actor.tokenId);
  }

  return async function authenticate(request: FastifyRequest): Promise<Actor> {
    const actor = await identify(request);
    const target = requestedSudo(request);
    return target === undefined ? actor : sudo(actor, target);
  };

  async function identify(request: FastifyRequest): Promise<Actor> {
    const secret = presentedToken(request);
    if (secret) {
      const found = await deps.tokens.authenticate(secret);
      if (!found) throw new UnauthorizedError();
      return actorFor(found.user, 'token', found.token.scopes as TokenScope[], found.token.id);
    }
    const jobToken = presentedJobToken(request);
    if (jobToken && deps.jobTokens) {
      if (RUNNER_JOB_ROUTES.test(request.url)) return { ...ANONYMOUS, accessCache: new Map() };
      // GitLab's job-token scope: the job's user, reading, in the job's own project.
      const job = await deps.jobTokens(jobToken);
      if (!job) throw new UnauthorizedError();
      const target = jobTokenTarget(request.url);
      // another project's endpoints too when its allowlist names the job's project (what it may read there is the authorizer's)
      const allowed = target === job.projectId || (target !== null && deps.jobTokenAllows !== undefined && (await deps.jobTokenAllows(target, job.projectId)));
      if (!allowed) throw new UnauthorizedError();
      return jobTokenActor(job.user, job.projectId);
    }
    const sessionId = request.cookies?.[SESSION_COOKIE];
    if (sessionId) {
      const session = await deps.sessions.find(sessionId);
      if (session) {
        assertCsrf(request, session.csrfToken, deps.externalUrl);
        return actorFor(session.user, 'session');
      }
    }
    return { ...ANONYMOUS, accessCache: new Map() };
  }
}
