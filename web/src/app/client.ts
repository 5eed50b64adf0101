import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createApiClient } from '../lib/api-client';
import { ApiError } from '../lib/api-error';
import type { Session } from '../lib/gitlab-types';
import { shouldRecheckSession } from './unauthorized';

/**
 * The data composition root: one query cache and one API client. The CSRF token
 * is server data like any other, so it is read from the cached session
 * (features/session/api.ts) at request time rather than kept in a variable.
 */
export const SESSION_QUERY_KEY = ['session'] as const;

/** Client errors will not change on retry; network and server errors might. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** Whether the cached session holds a user (null is a known signed-out visitor). */
function signedIn(): boolean {
  return Boolean(queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY));
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError(error, query) {
      const status = error instanceof ApiError ? error.status : null;
      if (shouldRecheckSession({ status, queryKey: query.queryKey, sessionKey: SESSION_QUERY_KEY[0], signedIn: signedIn() })) {
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      }
    },
  }),
  defaultOptions: {
    queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Signed out there is no token, and the client then sends no `X-CSRF-Token` header at all. */
export const api = createApiClient({
  getCsrfToken: () => queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY)?.csrf_token,
});
