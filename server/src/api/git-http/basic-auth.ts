import { actorFor, jobTokenActor, type Actor, type TokenScope } from '../../auth/actor.js';
import { JOB_TOKEN_USERNAME } from '../../domains/runner-protocol/job-token.js';
import type { User } from '../../domains/users/user.js';
import { UnauthorizedError } from '../../platform/errors.js';
import type { TokensService } from '../../domains/tokens/tokens.service.js';
import type { PasswordAuthenticator } from '../../domains/sessions/password-authenticator.js';

export interface BasicCredentials {
  username: string;
  password: string;
}

/** Parses `Authorization: Basic …`; undefined when absent or malformed. Pure. */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * git over HTTP signs in with HTTP Basic: the password is either a personal
 * access token (any username, as GitLab accepts), the user's own password
 * (the username must match), or a running job's CI_JOB_TOKEN with the user
 * name `gitlab-ci-token`. Returns the actor, or null for bad credentials.
 */
export function createGitAuthenticator(deps: {
  tokens: Pick<TokensService, 'authenticate'>;
  passwords: Pick<PasswordAuthenticator, 'verify'>;
  /** the user and project of a running job's CI_JOB_TOKEN; null when unknown or the job has ended */
  jobTokens?: (token: string) => Promise<{ user: User; projectId: number } | null>;
}) {
  /** Throws TooManyRequestsError when this login or address is throttled. */
  return async function authenticate(credentials: BasicCredentials, clientAddress: string): Promise<Actor | null> {
    // `gitlab-ci-token:<job token>`, as GitLab: the job's user, reading its own project (and those whose job token allowlist names it).
    if (credentials.username === JOB_TOKEN_USERNAME && deps.jobTokens) {
      const job = await deps.jobTokens(credentials.password);
      return job ? jobTokenActor(job.user, job.projectId) : null;
    }
    const found = await deps.tokens.authenticate(credentials.password);
    if (found) return actorFor(found.user, 'token', found.token.scopes as TokenScope[], found.token.id);
    try {
      return actorFor(await deps.passwords.verify(credentials.username, credentials.password, clientAddress), 'session');
    } catch (error) {
      if (error instanceof UnauthorizedError) return null;
      throw error;
    }
  };
}
