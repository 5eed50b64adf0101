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
  /**
   * Set when the caller presented a CI job token (CI_JOB_TOKEN): the job's project. GitLab's
   * job-token scope: the token acts as the job's user in that project only; anywhere else it
   * has no more rights than an anonymous caller.
   */
  jobProjectId?: number;
  /** memo of effective access levels, keyed by subject, for one request */
  accessCache?: Map<string, number>;
}

export const ANONYMOUS: Actor = Object.freeze({ user: null, scopes: null, via: 'anonymous' }) as Actor;

export function actorFor(user: User | null, via: Actor['via'], scopes: TokenScope[] | null = null, tokenId?: number): Actor {
  return { user, scopes, via, tokenId, accessCache: new Map() };
}

/** The caller of a CI job token: the job's user, reading (GitLab's job-token scope), in the job's project only. */
export function jobTokenActor(user: User, projectId: number): Actor {
  return { user, scopes: ['read_repository', 'read_api'], via: 'token', jobProjectId: projectId, accessCache: new Map() };
}
