import { z } from 'zod';

/**
 * The web app's session calls (not part of GitLab's API v4):
 *   POST   /-/session   { login, password } → 201 SessionResponse, sets the session cookie
 *   GET    /-/session   → 200 SessionResponse, or 401 when signed out
 *   DELETE /-/session   → 204 (needs the X-CSRF-Token header)
 * Every mutating /api/v4 request made with the session cookie must carry
 * `X-CSRF-Token: <csrf_token>`.
 */
export const SignInRequest = z.object({
  login: z.string().min(1),
  password: z.string().min(1),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = '_tributary_session';
