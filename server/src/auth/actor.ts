import type { User } from '../domains/users/user.js';

export const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo', 'admin_mode', 'create_runner', 'manage_runner'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * Who is calling. `scopes` is null for a web session (full rights, guarded
 * by CSRF tokens) and for anonymous callers; a token carries its scopes.
 */
export interface Actor {
  user: User | null;
  scopes: TokenScope[] | null;
  via: 'anonymous' | 'session' | 'token';
  /** the personal access token used, when via === 'token' */
  tokenId?: number;
  /** memo of effective access levels, keyed by subject, for one request */
  accessCache?: Map<string, number>;
}

export const ANONYMOUS: Actor = Object.freeze({ user: null, scopes: null, via: 'anonymous' }) as Actor;

export function actorFor(user: User | null, via: Actor['via'], scopes: TokenScope[] | null = null, tokenId?: number): Actor {
  return { user, scopes, via, tokenId, accessCache: new Map() };
}
