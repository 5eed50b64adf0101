import { verifyPassword } from '../../auth/passwords.js';
import { actorFor, type Actor, type TokenScope } from '../../auth/actor.js';
import type { TokensService } from '../../domains/tokens/tokens.service.js';
import type { UsersRepository } from '../../domains/users/users.repository.js';

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
 * access token (any username, as GitLab accepts) or the user's own password
 * (the username must match). Returns the actor, or null for bad credentials.
 */
export function createGitAuthenticator(deps: {
  tokens: Pick<TokensService, 'authenticate'>;
  users: Pick<UsersRepository, 'findById' | 'findCredentials'>;
}) {
  return async function authenticate(credentials: BasicCredentials): Promise<Actor | null> {
    const found = await deps.tokens.authenticate(credentials.password);
    if (found) return actorFor(found.user, 'token', found.token.scopes as TokenScope[], found.token.id);
    const user = await deps.users.findCredentials(credentials.username);
    if (!user || user.state !== 'active' || user.username.toLowerCase() !== credentials.username.toLowerCase()) return null;
    if (!(await verifyPassword(credentials.password, user.password_hash))) return null;
    const { password_hash: _, ...plain } = user;
    return actorFor(plain, 'session');
  };
}
