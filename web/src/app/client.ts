import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createApiClient } from '../lib/api-client';
import { ApiError } from '../lib/api-error';
import type { Session } from '../lib/gitlab-types';

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

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError(error, query) {
      // A 401 on any call means the session ended elsewhere: re-check it so the app redirects to sign in.
      if (error instanceof ApiError && error.isUnauthorized && query.queryKey[0] !== SESSION_QUERY_KEY[0]) {
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      }
    },
  }),
  defaultOptions: {
    queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

export const api = createApiClient({
  getCsrfToken: () => queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY)?.csrf_token,
});
