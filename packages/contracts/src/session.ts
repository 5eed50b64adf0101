/**
 * The web app's session calls (not part of GitLab's API v4):
 *   POST   /-/session   { login, password } → 201 SessionResponse, sets the session cookie
 *   GET    /-/session   → 200 SessionResponse, or 401 when signed out
 *   DELETE /-/session   → 204 (needs the X-CSRF-Token header)
 * Every mutating /api/v4 request made with the session cookie must carry
 * `X-CSRF-Token: <csrf_token>`.
 */
export interface SignInRequest {
  login: string;
  password: string;
}

/** The sign-in body, or null unless `login` and `password` are non-empty strings (extra fields are ignored). */
export function parseSignInRequest(body: unknown): SignInRequest | null {
  if (typeof body !== 'object' || body === null) return null;
  const { login, password } = body as Record<string, unknown>;
  return typeof login === 'string' && login !== '' && typeof password === 'string' && password !== '' ? { login, password } : null;
}

export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = '_tributary_session';
